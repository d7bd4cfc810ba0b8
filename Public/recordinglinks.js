// "Save recording" in the timeline's bar: a link that downloads the room's history kept by the
// server as a recording (`GET /export/ROOM.flhistory`, docs/history-format.md), which
// `forcelayout import` or this page's Import… plays back into another room; while the page
// shows a past moment, "From here to now" downloads the span from that moment (`?from=AT`).
// The rules of the room's other exports (importpanel.js): an open room's link works as it is;
// with one of the room's links (`key()`) the file is fetched with it (`Authorization: Bearer`)
// and handed to the browser; without one, a room that is not open exports nothing (said, no
// request that would be refused).
import { saveBlob } from './download.js';

/** The address and file name of the room's recording, from `at` (ms since 1970) or all of it. */
export function recordingAddress(room, at = null) {
  const from = at === null ? '' : `?from=${Math.floor(at)}`;
  const name = at === null ? `${room}.flhistory` : `${room}-from-${Math.floor(at)}.flhistory`;
  return { href: `/export/${encodeURIComponent(room)}.flhistory${from}`, name };
}

export function createRecordingLinks({ whole, since }, state, { key = () => null, say = () => {} }) {
  const NEEDS_LINK = 'Saving the recording needs one of this room\u2019s links (ask its owner for the view link).';

  function render() {
    const all = recordingAddress(state.room);
    whole.href = all.href;
    whole.download = all.name;
    const at = state.moment?.at ?? null;
    since.hidden = at === null;
    if (at !== null) {
      const span = recordingAddress(state.room, at);
      since.href = span.href;
      since.download = span.name;
    }
    const allowed = state.access === 'open' || key() !== null;
    for (const link of [whole, since]) {
      link.setAttribute('aria-disabled', String(!allowed));
      link.title = allowed ? link.dataset.title : 'Saving the recording needs one of this room\u2019s links';
    }
  }

  async function download(e, link) {
    const secret = key();
    if (!secret && state.access === 'open') return; // the plain link does it
    e.preventDefault();
    if (!secret) return say(NEEDS_LINK);
    try {
      const reply = await fetch(link.href, { headers: { Authorization: `Bearer ${secret}` } });
      if (!reply.ok) {
        say(reply.status === 403 ? NEEDS_LINK : `Saving the recording failed (${reply.status}): ${(await reply.text()).trim()}`);
        return;
      }
      saveBlob(await reply.blob(), link.download);
    } catch (err) {
      say(`Saving the recording failed: ${err.message}`);
    }
  }

  for (const link of [whole, since]) {
    link.dataset.title = link.title;
    link.addEventListener('click', (e) => download(e, link));
  }
  for (const type of ['room', 'moment', 'access']) state.on(type, render);
  render();
  return { render };
}
