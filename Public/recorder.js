// A video of the canvas (what people post): Record starts the browser's MediaRecorder on the
// canvas's stream (canvas.captureStream), Stop saves it as forcelayout-ROOM-DATE.webm
// (download.js). The canvas is drawn only when something changed, so the video holds a frame
// for each draw (a still layout adds none until it moves); what the canvas shows is what is
// recorded: the live room, or the past while the timeline shows it. `r` starts and stops it
// (main.js).
import { saveBlob } from './download.js';

// the formats tried, best first: VP9 makes smaller files than VP8 at the same quality
export const VIDEO_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];
const FPS = 30;
const BITS_PER_SECOND = 8e6;

/** The first of VIDEO_TYPES the browser records (`supported(type)`), or null: none. */
export function videoType(supported) {
  for (const type of VIDEO_TYPES) {
    try {
      if (supported(type)) return type;
    } catch {
      // a browser that throws on the question does not record it
    }
  }
  return null;
}

/** "forcelayout-ROOM-2026-11-28-140312.webm": the room and the local time the recording began. */
export function videoName(room, date) {
  const p = (n) => String(n).padStart(2, '0');
  const day = `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
  return `forcelayout-${room}-${day}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}.webm`;
}

/** "0:07", "12:30": a recording's length. */
export function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function createRecorder(button, canvas, state, { say = () => {}, onDraw = () => {} } = {}) {
  const Recorder = globalThis.MediaRecorder;
  const type = Recorder && typeof canvas.captureStream === 'function' ? videoType((t) => Recorder.isTypeSupported(t)) : null;
  let job = null; // {recorder, chunks, name, started, ticker}

  function show() {
    const on = job !== null;
    button.textContent = on ? `Stop ${duration(performance.now() - job.started)}` : 'Record';
    button.setAttribute('aria-pressed', String(on));
    button.classList.toggle('recording', on);
    document.body.dataset.recording = String(on);
  }

  if (type === null) {
    button.disabled = true;
    button.title = 'This browser cannot record the canvas (MediaRecorder with WebM)';
  }

  function start() {
    const stream = canvas.captureStream(FPS);
    const recorder = new Recorder(stream, { mimeType: type, videoBitsPerSecond: BITS_PER_SECOND });
    const started = new Date();
    job = { recorder, chunks: [], name: videoName(state.room, started), started: performance.now(), ticker: 0 };
    const mine = job;
    recorder.addEventListener('dataavailable', (e) => {
      if (e.data && e.data.size > 0) mine.chunks.push(e.data);
    });
    recorder.addEventListener('stop', () => {
      for (const track of stream.getTracks()) track.stop();
      const blob = new Blob(mine.chunks, { type: 'video/webm' });
      const length = duration(performance.now() - mine.started);
      if (blob.size === 0) return say('The recording is empty: nothing was drawn while it ran', 'error');
      saveBlob(blob, mine.name);
      say(`Saved the video as ${mine.name} (${length}, ${(blob.size / 1e6).toFixed(1)} MB).`, 'done');
    });
    recorder.addEventListener('error', (e) => say(`Recording stopped: ${e.error?.message ?? 'the browser failed'}`, 'error'));
    recorder.start(1000);
    job.ticker = setInterval(show, 1000);
    onDraw(); // a first frame now, even if nothing moves
    say('Recording the canvas: press Stop (or r) to save the video.');
    show();
  }

  function stop() {
    const { recorder, ticker } = job;
    clearInterval(ticker);
    job = null;
    if (recorder.state !== 'inactive') recorder.stop();
    show();
  }

  /** Start recording, or stop and save (the button, `r`). */
  function toggle() {
    if (type === null) return say(button.title, 'error');
    if (job) stop();
    else start();
  }

  button.addEventListener('click', toggle);
  show();
  return { toggle };
}
