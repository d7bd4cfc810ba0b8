// Import and export in the panel. Import: the button's file picker or a file dropped on the
// page, read (graphfile.js) and sent into the room (importer.js) one message at a time,
// paced under the server's rate limit, with a progress bar, then a line that says what came
// in and what did not, and why. When the room moves to another server (a `failover`) or the
// connection comes back after a loss, the import goes on from what the room holds (importer.js).
// Export: a link that downloads the room as node-link JSON with positions (GET /export/ROOM.json);
// when the page holds one of the room's links (`key()`), the download is fetched with it
// (`Authorization: Bearer`), as a room that is not open exports only to link holders. A viewer
// imports nothing (the button is disabled). Into a room that holds cells, the import asks first
// whether the graph replaces them (a `clear` goes first) or joins them (`chooseMode`). A
// recording (.flhistory, or a file that starts as one) is not a graph: it is played into the
// room (`play`, playpanel.js).
import { readGraph } from './graphfile.js';
import { isRecording } from './recording.js';
import { createImporter } from './importer.js';
import { saveBlob } from './download.js';

// chooseMode({name, cells, roomCells}) -> a promise of 'replace', 'add' or null (cancelled)
export function createImportPanel({ button, input, progress, status, exportLink, dropTarget }, state, {
  send, key = () => null, chooseMode = async () => 'add', play = null,
}) {
  let choosing = false;
  let job = null; // {importer, name, timer, lastSent, ticker, client}

  function say(text, kind = '') {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function showProgress() {
    const { done, total, cells, links } = job.importer.progress;
    progress.hidden = false;
    progress.max = Math.max(1, total);
    progress.value = done;
    say(`Importing ${job.name}: ${cells} of ${job.cells} cells, ${links} of ${job.links} links`);
  }

  function finish() {
    const { importer, name } = job;
    clearTimeout(job.timer);
    clearInterval(job.ticker);
    job = null;
    progress.hidden = true;
    document.body.dataset.importing = '';
    button.disabled = state.role === 'viewer' || state.moment !== null;
    const notes = importer.notes.length ? ` Not imported: ${importer.notes.join('; ')}.` : '';
    if (importer.failed) return say(`Import of ${name} stopped: ${importer.failed}.${notes}`, 'error');
    const { cells, links } = importer.progress;
    say(`Imported ${cells} cells and ${links} links from ${name}.${notes}`, notes ? 'warning' : 'done');
  }

  // Sends the next message while the importer's window has room and the pace allows; an
  // answer, or the pace's timer, brings the next.
  function pump() {
    if (!job) return;
    if (job.importer.done) return finish();
    if (job.importer.waiting) return;
    const rate = Math.max(1, (Number(state.limits.messagesPerSecond) || 60) * 0.8);
    const wait = job.lastSent + 1000 / rate - performance.now();
    if (wait > 0) {
      clearTimeout(job.timer);
      job.timer = setTimeout(pump, wait);
      return;
    }
    const message = job.importer.next();
    if (message === null) return pump();
    job.lastSent = performance.now();
    // not sent (the connection dropped): the connection listener ends the import
    if (!send(message)) return;
    showProgress();
    clearTimeout(job.timer);
    job.timer = setTimeout(pump, 1000 / rate);
  }

  async function start(file) {
    if (job || choosing || play?.busy) return say('An import is under way: wait for it to end', 'error');
    if (state.connection !== 'connected') return say('Not connected: wait for the server, then import again', 'error');
    if (state.role === 'viewer') return say('View only: importing would change the room (it needs the edit link)', 'error');
    if (state.moment !== null) return say('You are viewing the past: go live to import into the room', 'error');
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (play && (file.name.endsWith('.flhistory') || isRecording(bytes))) return play.play(file.name, bytes);
    let graph;
    try {
      graph = readGraph(new TextDecoder().decode(bytes));
    } catch (e) {
      return say(`Cannot import ${file.name}: ${e.message}`, 'error');
    }
    if (state.ids.length > 0) {
      choosing = true;
      let mode;
      try {
        mode = await chooseMode({ name: file.name, cells: graph.nodes.length, roomCells: state.ids.length });
      } finally {
        choosing = false;
      }
      if (mode !== 'replace' && mode !== 'add') return say(`Import of ${file.name} cancelled.`);
      if (state.connection !== 'connected') return say('Not connected: wait for the server, then import again', 'error');
      // the room's cells go first; the server applies this page's messages in order
      if (mode === 'replace' && !send({ type: 'clear' })) return say('Not connected: wait for the server, then import again', 'error');
    }
    job = { importer: createImporter(graph, state.limits), name: file.name, cells: graph.nodes.length, links: graph.edges.length,
      timer: 0, lastSent: -Infinity, client: state.client };
    job.ticker = setInterval(() => {
      if (job && job.importer.tick(performance.now() / 1000, state.connection === 'connected')) pump();
    }, 250);
    button.disabled = true;
    document.body.dataset.importing = 'true';
    showProgress();
    pump();
  }

  state.on('history', ({ events }) => {
    if (!job) return;
    let answered = false;
    for (const ev of events) {
      if (ev.kind === 'failover') {
        job.importer.failover();
        say(`Importing ${job.name}: the room moved to another server, going on from what it holds`);
      }
      answered = job.importer.event(ev, state.client) || answered;
    }
    if (answered || job.importer.failed) pump();
  });
  // The room's data after a failover or a reconnection: what of the import it holds.
  state.on('data', (change) => {
    if (!job || !change?.replaced || !job.importer.resyncing) return;
    job.importer.resynced(state.data);
    pump();
  });
  state.on('rejected', () => {
    if (job && job.importer.refused(state.rejected)) pump();
  });
  state.on('connection', () => {
    if (!job) return;
    if (state.connection === 'connected') {
      job.client = state.client;
      return;
    }
    job.importer.lost(job.client);
    if (job.importer.failed) return pump();
    say(`Importing ${job.name}: the connection was lost, going on when it is back`);
  });

  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    if (input.files && input.files[0]) start(input.files[0]);
    input.value = '';
  });
  // a file dropped anywhere on the page
  dropTarget.addEventListener('dragover', (e) => {
    if (![...(e.dataTransfer?.types || [])].includes('Files')) return;
    e.preventDefault();
    document.body.dataset.dropping = 'true';
  });
  dropTarget.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) document.body.dataset.dropping = '';
  });
  dropTarget.addEventListener('drop', (e) => {
    document.body.dataset.dropping = '';
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    start(file);
  });

  function exportAddress() {
    exportLink.href = `/export/${encodeURIComponent(state.room)}.json`;
    exportLink.download = `${state.room}.json`;
  }
  state.on('room', exportAddress);
  exportAddress();

  // With a key, the document is fetched with it and handed to the browser as a file.
  exportLink.addEventListener('click', async (e) => {
    const secret = key();
    if (!secret && state.access === 'open') return; // the plain link does it
    e.preventDefault();
    if (!secret) {
      // a room that is not open exports only to link holders: no request that would be refused
      say('Export needs one of this room\u2019s links (ask its owner for the view link).', 'error');
      return;
    }
    try {
      const reply = await fetch(exportLink.href, { headers: secret ? { Authorization: `Bearer ${secret}` } : {} });
      if (!reply.ok) {
        say(reply.status === 403 || reply.status === 404
          ? 'Export needs one of this room\u2019s links (ask its owner for the view link).'
          : `Export failed (${reply.status}).`, 'error');
        return;
      }
      saveBlob(await reply.blob(), exportLink.download);
    } catch (err) {
      say(`Export failed: ${err.message}`, 'error');
    }
  });

  function showRole() {
    const viewer = state.role === 'viewer';
    const past = state.moment !== null;
    if (!job) button.disabled = viewer || past;
    button.title = viewer ? 'View only: importing changes the room'
      : past ? 'Viewing the past: go live to import' : button.dataset.title ?? button.title;
    const exportable = state.access === 'open' || key() !== null;
    exportLink.setAttribute('aria-disabled', String(!exportable));
    exportLink.title = exportable ? exportLink.dataset.title : 'Export needs one of this room\u2019s links';
  }
  button.dataset.title = button.title;
  exportLink.dataset.title = exportLink.title;
  state.on('access', showRole);
  state.on('moment', showRole);

  return { start, say };
}
