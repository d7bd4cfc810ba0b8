// Playing a recording (.flhistory) into the room from the panel: the import's file picker, a
// dropped file or the empty room's Import hands a recording here (importpanel.js). The room
// must be empty, as for the CLI: otherwise the page asks "Replace the N cells here?" and clears
// it first (as `--replace`). Then playback.js's messages go at the recording's pace (the speed
// menu: 1×, 2×, 8×, or as fast as the server's rate allows, as the importer paces its messages),
// with "Playing recording: 1:23 of 4:10" and a Stop button. Stopping, an error answer (the
// server's words are shown), a lost connection or the room moving leave the room as far as it
// was played, unpaused when the playback paused it. Viewers cannot play (the import button and
// the speed menu are disabled for them).
import { readRecording, recordingSpan } from './recording.js';
import { createPlayback, minutes } from './playback.js';

const CLEAR_REF = 'play-clear';
const TICK_MS = 250;

export function createPlayPanel({ button, progress, status, stop, speed }, state, { send, confirmReplace = async () => false }) {
  let job = null; // {name, playback, clearing, timer, ticker, lastSent, notes, stopped}

  function say(text, kind = '') {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function speedValue() {
    const value = Number(speed.value);
    return Number.isFinite(value) && value >= 0 ? value : 1;
  }

  function showProgress() {
    if (!job?.playback) return;
    const { done, total, at, duration } = job.playback.progress;
    progress.hidden = false;
    progress.max = Math.max(1, total);
    progress.value = done;
    const notes = job.notes.length ? ` (${job.notes.join('; ')})` : '';
    say(`Playing recording: ${minutes(at)} of ${minutes(duration)}${notes}`);
  }

  function schedule(ms) {
    clearTimeout(job.timer);
    job.timer = setTimeout(pump, ms);
  }

  // Sends the next message while the playback has one due and the server's rate allows; an
  // answer, or a timer (the rate's, or the next message's time in the recording), brings the next.
  function pump() {
    if (!job?.playback) return;
    const { playback } = job;
    if (playback.done) return finish();
    const rate = Math.max(1, (Number(state.limits.messagesPerSecond) || 60) * 0.8);
    const now = performance.now();
    const wait = job.lastSent + 1000 / rate - now;
    if (wait > 0) return schedule(wait);
    const message = playback.next(now);
    if (message === null) {
      if (playback.done) return finish();
      const wake = playback.wake();
      if (wake > 0) schedule(Math.min(wake, 1000));
      return showProgress();
    }
    job.lastSent = now;
    // not sent (the connection dropped): the connection listener ends the playback
    if (!send(message)) return;
    showProgress();
    schedule(1000 / rate);
  }

  function begin() {
    const defaults = Object.fromEntries((state.paramSpecs ?? []).map((spec) => [spec.name, spec.default]));
    job.clearing = false;
    job.playback = createPlayback(job.recording, { roomParameters: { ...state.params }, limits: state.limits, defaults, speed: speedValue() });
    pump();
  }

  function finish(why = null) {
    const { name, playback, notes } = job;
    clearTimeout(job.timer);
    clearInterval(job.ticker);
    job = null;
    progress.hidden = true;
    stop.hidden = true;
    document.body.dataset.importing = '';
    button.disabled = state.role === 'viewer' || state.moment !== null;
    const tail = notes.length ? ` ${notes.join('; ')}.` : '';
    if (!playback) return say(why ? `Playback of ${name} stopped: ${why}.` : `Playback of ${name} cancelled.`, why ? 'error' : '');
    const finished = playback.finished;
    const failed = why ?? playback.failed;
    // the room unpaused when the playback paused it and did not get to its end
    const unpause = playback.stop();
    if (unpause && state.connection === 'connected') send(unpause);
    if (failed) return say(`Playback of ${name} stopped: ${failed}.${tail}`, 'error');
    const { at, duration } = playback.progress;
    if (!finished) return say(`Playback of ${name} stopped at ${minutes(at)} of ${minutes(duration)}.${tail}`, 'warning');
    say(`Played ${name}: ${minutes(duration)}, ${playback.total} messages.${tail}`, notes.length ? 'warning' : 'done');
  }

  /** Plays the recording `bytes` (a Uint8Array) of the file `name`. */
  async function play(name, bytes) {
    if (job) return say('A recording is playing: stop it first', 'error');
    let recording;
    try {
      recording = readRecording(bytes);
    } catch (e) {
      return say(`Cannot play ${name}: ${e.message}`, 'error');
    }
    const notes = recording.cutBytes > 0
      ? [`the file's tail is not whole: playing the first ${Math.round(recordingSpan(recording) / 1000)} s`] : [];
    let clearing = false;
    if (state.ids.length > 0) {
      const n = state.ids.length;
      if (!(await confirmReplace(n))) return say(`Playback of ${name} cancelled: a recording is played into an empty room.`);
      if (state.connection !== 'connected') return say('Not connected: wait for the server, then play again', 'error');
      if (state.ids.length > 0) {
        if (!send({ type: 'clear', ref: CLEAR_REF })) return say('Not connected: wait for the server, then play again', 'error');
        clearing = true;
      }
    }
    job = { name, recording, playback: null, clearing, timer: 0, lastSent: -Infinity, notes, since: performance.now() };
    job.ticker = setInterval(() => {
      if (!job) return;
      if (job.clearing) {
        if (performance.now() - job.since > 20000) finish('the room was not cleared within 20 s');
        return;
      }
      if (job.playback.tick(performance.now())) return finish();
      showProgress();
    }, TICK_MS);
    button.disabled = true;
    stop.hidden = false;
    document.body.dataset.importing = 'true';
    say(clearing ? `Playing ${name}: clearing the room first` : `Playing ${name}`);
    if (!clearing) begin();
  }

  state.on('history', ({ events }) => {
    if (!job) return;
    let answered = false;
    for (const ev of events) {
      if (job.clearing) {
        if (ev.kind === 'cleared' && ev.by === state.client) begin();
        continue;
      }
      answered = job.playback.event(ev, state.client) || answered;
    }
    if (answered && job) pump();
  });
  state.on('rejected', () => {
    if (!job) return;
    const err = state.rejected;
    if (job.clearing) {
      if (err?.ref === CLEAR_REF) finish(`the server refused to clear the room: ${err.message ?? 'refused'}`);
      return;
    }
    if (job.playback.refused(err)) finish();
  });
  state.on('connection', () => {
    if (!job || state.connection === 'connected') return;
    if (job.clearing) return finish('the connection ended before the room was cleared');
    job.playback.lost();
    finish();
  });

  stop.addEventListener('click', () => {
    if (job) finish();
  });
  speed.addEventListener('change', () => {
    if (!job?.playback) return;
    job.playback.setSpeed(speedValue(), performance.now());
    pump();
  });

  function showRole() {
    speed.disabled = state.role === 'viewer';
  }
  for (const type of ['access', 'moment', 'connection']) state.on(type, showRole);
  showRole();

  return { play, get busy() { return job !== null; } };
}
