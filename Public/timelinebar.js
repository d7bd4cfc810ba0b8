// The timeline under the canvas (rewind.js holds what it shows): a track from the oldest
// moment the server keeps to now, with a mark for each change (its colour says what kind:
// timeline.js MARK_CLASSES), a band where the layout rested, and a handle. Dragging the
// handle back shows this page the room as it was (the canvas draws the moment; the room goes
// on live for everyone else); near a mark it snaps to it, at the right end it is live. The
// pointer over a mark says who did what, and when. The line above says what is shown
// ("Viewing 14:03:12 — c3 cleared 120 cells") with Live and
// Restore this moment (an editor's or owner's page: the room becomes that moment for
// everyone, asked first); the list below it holds the changes around the moment, each a
// button that goes there. The track is an ARIA slider: ← → the previous and next change,
// Shift+← → ten seconds, Page Down / Page Up a minute back and on, Home the oldest moment,
// End (or Esc) live. `h` opens and closes it (main.js).
import { changeNear, changesAround, indexAt, isChange, MARK_CLASSES, markColumns, settledSpans, stepChange, xOf, atOf } from './timeline.js';
import { clockTime, describeEvent, describeMoment } from './wording.js';
import { fitCanvas } from './canvasfit.js';

const SNAP_PX = 5; // a press this near a mark goes to the mark
const LIVE_PX = 4; // this near the right end is live
const TICK_MS = 1000; // the track moves with the clock

export function createTimelineBar({ root, toggle, text, liveButton, restoreButton, closeButton, track, list }, state, rewind, {
  confirmRestore = () => true, onResize = () => {}, say = () => {},
} = {}) {
  const canvas = track.querySelector('canvas');
  const ctx = canvas.getContext('2d');
  let cssW = 1;
  let cssH = 1;
  let dpr = 1;
  let pending = false;
  let ticker = null;
  let colors = readColors();
  // The span the track shows: taken again as the clock ticks and the timeline changes, but
  // held while the handle is dragged, so the marks under the pointer keep still (and are not
  // counted again at every move: `cached`).
  let range = rewind.range();
  let cached = { version: -1, start: 0, end: 0, w: 0, cols: null };
  let dragging = null; // the pointer holding the handle

  function readColors() {
    const cs = getComputedStyle(root);
    const v = (name, fallback) => cs.getPropertyValue(name).trim() || fallback;
    return {
      bg: v('--inset', 'rgba(0,0,0,0.03)'),
      rest: v('--ok', '#16a34a'),
      unknown: v('--line', 'rgba(0,0,0,0.12)'),
      handle: v('--cell-selected', '#e11d48'),
      live: v('--accent', '#2563eb'),
      marks: MARK_CLASSES.map((c) => v(`--mark-${c}`, '#64748b')),
    };
  }

  // ---- drawing, at most once an animation frame ----

  function resize() {
    ({ cssW, cssH, dpr } = fitCanvas(canvas));
    redraw();
  }

  function redraw() {
    if (pending || root.hidden) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw();
    });
  }

  // the marks' columns, made again when the events or the width changed, or the range moved by
  // a quarter of a column (it follows the clock: not at every draw)
  function columns(w) {
    const { timeline } = rewind;
    const c = cached;
    const slack = (range.end - range.start) / Math.max(1, w) / 4;
    if (c.version !== timeline.version || c.w !== w || !(Math.abs(c.start - range.start) < slack) || !(Math.abs(c.end - range.end) < slack)) {
      cached = { version: timeline.version, start: range.start, end: range.end, w, cols: markColumns(timeline, range, w) };
    }
    return cached.cols;
  }

  function draw() {
    const { timeline } = rewind;
    const w = canvas.width;
    const h = canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, w, h);
    const band = Math.round(4 * dpr);
    // before the oldest event this page holds, while the server has older ones: not known yet
    if (timeline.more && timeline.events.length > 0) {
      ctx.fillStyle = colors.unknown;
      ctx.fillRect(0, 0, Math.round(xOf(timeline.events[0].at, range, w)), h);
    }
    ctx.fillStyle = colors.rest;
    ctx.globalAlpha = 0.45;
    for (const s of settledSpans(timeline, range)) {
      const x0 = Math.floor(xOf(s.start, range, w));
      ctx.fillRect(x0, h - band, Math.max(1, Math.ceil(xOf(s.end, range, w)) - x0), band);
    }
    ctx.globalAlpha = 1;
    const cols = columns(w);
    const top = Math.round(6 * dpr);
    for (let x = 0; x < cols.length; x++) {
      if (cols[x] === 255) continue;
      ctx.fillStyle = colors.marks[cols[x]];
      ctx.fillRect(x, top, Math.max(1, Math.round(dpr)), h - top - band - Math.round(2 * dpr));
    }
    // the handle: where the moment shown is, or at now (live)
    const at = rewind.at;
    const hx = at === null ? w - Math.round(2 * dpr) : Math.round(xOf(at, range, w));
    ctx.fillStyle = at === null ? colors.live : colors.handle;
    ctx.fillRect(hx - Math.round(dpr), 0, Math.round(2 * dpr), h);
    ctx.beginPath();
    ctx.arc(hx, Math.round(5 * dpr), Math.round(5 * dpr), 0, 2 * Math.PI);
    ctx.fill();
  }

  // ---- what is said: the line, the buttons, the slider's values, the list ----

  function lastChange(at) {
    const { events } = rewind.timeline;
    for (let i = indexAt(events, at); i >= 0; i--) if (isChange(events[i])) return events[i];
    return null;
  }

  function render() {
    const at = rewind.at;
    const viewing = at !== null;
    const shown = state.moment;
    if (rewind.unavailable !== null) text.textContent = `No history here: ${rewind.unavailable}.`;
    else if (!viewing) text.textContent = 'Live. Drag the handle back to see the room as it was (only you see it).';
    else text.textContent = describeMoment(at, lastChange(at), { clamped: shown?.clamped === true && shown.at === at });
    liveButton.hidden = !viewing;
    restoreButton.hidden = !viewing || state.role === 'viewer';
    restoreButton.disabled = shown === null || state.connection !== 'connected';
    document.body.dataset.viewing = viewing ? String(Math.round(at)) : '';
    document.body.dataset.moment = shown === null ? '' : String(shown.at);
    root.classList.toggle('viewing', viewing);

    if (dragging === null) range = rewind.range();
    track.setAttribute('aria-valuemin', String(Math.round(range.start)));
    track.setAttribute('aria-valuemax', String(Math.round(range.end)));
    track.setAttribute('aria-valuenow', String(Math.round(at ?? range.end)));
    track.setAttribute('aria-valuetext', viewing ? describeMoment(at, lastChange(at)) : 'Live');

    const around = changesAround(rewind.timeline, at ?? range.end, { before: viewing ? 3 : 5, after: viewing ? 2 : 0 });
    const current = around.before.at(-1);
    // built again only when it changes: a button of it may have the focus
    const key = `${viewing}:${current?.seq}:${[...around.before, ...around.after].map((ev) => ev.seq).join(',')}`;
    if (key !== listed) {
      listed = key;
      list.replaceChildren(...listItems(around, current, viewing));
    }
    redraw();
  }

  let listed = '';
  function listItems(around, current, viewing) {
    return [...around.before, ...around.after].map((ev) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.at = String(ev.at);
      b.dataset.seq = String(ev.seq);
      if (viewing && ev === current) b.setAttribute('aria-current', 'true');
      const t = document.createElement('time');
      t.dateTime = new Date(ev.at).toISOString();
      t.textContent = clockTime(new Date(ev.at));
      b.append(t, ` ${describeEvent(ev)}`);
      b.title = 'Show the room just after this change';
      li.append(b);
      return li;
    });
  }

  // ---- opening and closing ----

  function open(on, { focus = false } = {}) {
    if (on === rewind.opened) {
      if (on && focus) track.focus();
      return;
    }
    root.hidden = !on;
    toggle.setAttribute('aria-expanded', String(on));
    toggle.classList.toggle('active', on);
    rewind.open(on);
    clearInterval(ticker);
    ticker = on ? setInterval(render, TICK_MS) : null;
    onResize();
    if (on) {
      resize();
      if (focus) track.focus();
    }
  }

  toggle.addEventListener('click', () => open(!rewind.opened, { focus: true }));
  closeButton.addEventListener('click', () => {
    open(false);
    toggle.focus();
  });
  liveButton.addEventListener('click', () => rewind.live());
  restoreButton.addEventListener('click', () => {
    const shown = state.moment;
    if (shown === null || !confirmRestore(clockTime(new Date(shown.at)))) return;
    // the `restored` event says it (the log, the timeline) and brings this page live
    if (!rewind.restore()) say('Not connected: waiting for the server');
  });
  list.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-at]');
    if (b) rewind.goTo(Number(b.dataset.at));
  });

  // ---- the handle: pointer and keys ----

  function timeAtPointer(clientX) {
    const rect = canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    if (x >= rect.width - LIVE_PX) return Infinity; // live
    const near = changeNear(rewind.timeline, x, range, rect.width, SNAP_PX);
    return near ? near.at : atOf(x, range, rect.width);
  }

  track.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    dragging = e.pointerId;
    track.setPointerCapture(e.pointerId);
    track.focus();
    rewind.goTo(timeAtPointer(e.clientX));
    e.preventDefault();
  });
  track.addEventListener('pointermove', (e) => {
    if (dragging === e.pointerId) {
      rewind.goTo(timeAtPointer(e.clientX));
      return;
    }
    // a mark under the pointer says who did what, and when
    const rect = canvas.getBoundingClientRect();
    const near = changeNear(rewind.timeline, e.clientX - rect.left, range, rect.width, SNAP_PX);
    track.title = near ? `${clockTime(new Date(near.at))} ${describeEvent(near)}` : '';
  });
  const release = (e) => {
    if (dragging === e.pointerId) dragging = null;
  };
  track.addEventListener('pointerup', release);
  track.addEventListener('pointercancel', release);

  track.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const at = rewind.at ?? rewind.now();
    let to;
    switch (e.key) {
      case 'ArrowLeft':
      case 'ArrowDown':
        to = e.shiftKey ? at - 10000 : stepChange(rewind.timeline, at, -1) ?? range.start;
        break;
      case 'ArrowRight':
      case 'ArrowUp':
        to = e.shiftKey ? at + 10000 : stepChange(rewind.timeline, at, 1) ?? Infinity;
        break;
      case 'PageDown':
        to = at - 60000;
        break;
      case 'PageUp':
        to = at + 60000;
        break;
      case 'Home':
        to = range.start;
        break;
      case 'End':
      case 'Escape':
        to = Infinity;
        break;
      default:
        return;
    }
    e.preventDefault();
    if (rewind.at === null && to === Infinity) return;
    rewind.goTo(Math.max(range.start, to));
  });

  rewind.on('change', render);
  for (const type of ['moment', 'access', 'connection']) state.on(type, render);
  state.on('theme', () => {
    colors = readColors();
    redraw();
  });
  new ResizeObserver(resize).observe(track);
  render();

  return {
    /** Open or close the timeline (`focus`: its handle takes the keys). */
    open,
    /** `h`: open it (its handle focused), or close it. */
    toggle() {
      open(!rewind.opened, { focus: true });
    },
  };
}
