// Wiring: the connection feeds the state; the state feeds the canvas, the strip, the
// controls, the status line and the log; one requestAnimationFrame loop runs only while
// something moves or changed.
import { connect, socketUrl } from './net.js';
import {
  applyEvent, applyFrame, applyHello, applyStats, cellCount, createState, selectIndex, selectedIndex,
} from './state.js';
import { createRenderer } from './render.js';
import { createStrip } from './strip.js';
import { createControls } from './controls.js';
import { createStatus } from './status.js';
import { createLog } from './log.js';
import { createNotice } from './notice.js';
import { describeError, describeEvent, eventKey } from './wording.js';
import { throttle } from './throttle.js';

const $ = (sel) => document.querySelector(sel);

const state = createState();
const canvas = $('#layout');
const panel = $('#panel');
const panelToggle = $('#panel-toggle');
const status = createStatus($('#status'));
const log = createLog($('#log'), { max: 50 });
const notice = createNotice($('#notice'));
let connection = 'connecting';
let press = null; // a pointer pressed on a cell: {id, x, y, pointerId}
let dragging = null; // that cell being dragged (pinned): {id, wx, wy}

// ---- drawing loop ----

let raf = 0;
let lastT = 0;
function kick() {
  if (!raf) raf = requestAnimationFrame(loop);
}
function loop(t) {
  raf = 0;
  const dt = lastT ? Math.min(0.1, (t - lastT) / 1000) : 1 / 60;
  const a = renderer.frame(dt, state);
  const b = strip.frame(dt);
  if (a || b) {
    lastT = t;
    kick();
  } else {
    lastT = 0;
  }
}

// the part of the canvas not under the panel (wide windows only; a narrow one overlays)
function insets() {
  const none = { top: 0, right: 0, bottom: 0, left: 0 };
  if (panel.classList.contains('collapsed') || window.innerWidth <= 640) return none;
  return { ...none, right: panel.offsetWidth + 24 };
}

const renderer = createRenderer(canvas, { insets });
const strip = createStrip($('#strip'), {
  label: $('#strip-label'),
  onSelect(i) {
    if (selectIndex(state, i)) selectionChanged();
  },
});

function syncStrip(shift = 0) {
  strip.set({ count: state.ids.length, selected: selectedIndex(state), idOf: (i) => state.ids[i], shift });
}

function selectionChanged() {
  syncStrip();
  renderer.invalidate();
  document.body.dataset.selected = state.selectedId === null ? '' : String(state.selectedId);
  kick();
}

function refreshStatus() {
  status.update({
    connection,
    client: state.client,
    clients: state.clients,
    cells: cellCount(state),
    tickMs: state.stats?.tickMs,
    settled: state.settled,
  });
}

// ---- the connection ----

function send(msg) {
  if (net.send(msg)) return true;
  notice.show('Not connected: waiting for the server');
  return false;
}

const controls = createControls(panel, { send });
controls.setEnabled(false);

const handlers = {
  hello(msg) {
    connection = 'connected';
    const { restarted, events } = applyHello(state, msg);
    if (restarted) log.add('server restarted', { kind: 'restart' });
    for (const ev of events) log.add(describeEvent(ev), { seq: ev.seq, kind: ev.kind, key: eventKey(ev) });
    controls.setLimits(state.limits);
    controls.setParams(state.params);
    controls.setEnabled(true);
    renderer.retarget(state);
    refreshStatus();
    kick();
  },
  frame(msg) {
    const beforeId = state.selectedId;
    const before = selectedIndex(state);
    const r = applyFrame(state, msg);
    if (!r.applied) return;
    if (dragging) holdDragged();
    if (r.membership) {
      const after = selectedIndex(state);
      syncStrip(beforeId !== null && beforeId === state.selectedId && before >= 0 ? after - before : 0);
      document.body.dataset.selected = state.selectedId === null ? '' : String(state.selectedId);
      refreshStatus();
    }
    renderer.retarget(state);
    kick();
  },
  event(msg) {
    const r = applyEvent(state, msg);
    if (!r.show) return;
    log.add(describeEvent(msg), { seq: msg.seq, kind: msg.kind, key: eventKey(msg) });
    if (r.params) {
      controls.setParams(msg.params);
      renderer.retarget(state);
    }
    renderer.invalidate();
    refreshStatus();
    kick();
  },
  stats(msg) {
    applyStats(state, msg);
    refreshStatus();
  },
  error(msg) {
    notice.show(describeError(msg));
    controls.forgetSent();
  },
};

const net = connect({
  url: socketUrl(location),
  onMessage(msg) {
    const handle = typeof msg.type === 'string' && Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
    if (handle) handle(msg);
  },
  onState(s) {
    if (s === 'open') return; // connected once hello arrives
    connection = s;
    if (s === 'reconnecting') {
      controls.setEnabled(false);
      endDrag();
    }
    refreshStatus();
  },
});

// ---- pointer on the canvas: select, drag to pin, double-click to unpin ----

const sendPin = throttle((id, x, y) => net.send({ type: 'pin', id, x, y }), 50);
const round1 = (v) => Math.round(v * 10) / 10;

function holdDragged() {
  const i = state.index.get(dragging.id);
  if (i === undefined) return;
  state.xy[2 * i] = dragging.wx;
  state.xy[2 * i + 1] = dragging.wy;
}

function endDrag() {
  if (dragging) {
    sendPin.flush(dragging.id, dragging.wx, dragging.wy);
    renderer.freeze(false, state);
  }
  dragging = null;
  press = null;
  canvas.classList.remove('dragging');
}

canvas.addEventListener('pointerdown', (e) => {
  if (e.button !== 0) return;
  const i = renderer.hit(e.clientX, e.clientY, state);
  if (i < 0) return;
  if (selectIndex(state, i)) selectionChanged();
  press = { id: state.ids[i], x: e.clientX, y: e.clientY, pointerId: e.pointerId };
  canvas.setPointerCapture(e.pointerId);
});

canvas.addEventListener('pointermove', (e) => {
  if (!press) {
    if (e.pointerType === 'mouse') canvas.classList.toggle('over-cell', renderer.hit(e.clientX, e.clientY, state) >= 0);
    return;
  }
  if (!dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) < 4) return;
  if (!dragging) {
    dragging = { id: press.id, wx: 0, wy: 0 };
    renderer.freeze(true);
    canvas.classList.add('dragging');
  }
  const [wx, wy] = renderer.toWorld(e.clientX, e.clientY);
  dragging.wx = round1(wx);
  dragging.wy = round1(wy);
  holdDragged();
  sendPin.call(dragging.id, dragging.wx, dragging.wy);
  renderer.invalidate();
  kick();
});

canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);

canvas.addEventListener('dblclick', (e) => {
  const i = renderer.hit(e.clientX, e.clientY, state);
  if (i >= 0 && state.pinned.has(state.ids[i])) send({ type: 'unpin', id: state.ids[i] });
});

// ---- panel, sizes, theme ----

function setPanel(open) {
  panel.classList.toggle('collapsed', !open);
  panelToggle.setAttribute('aria-expanded', String(open));
  panelToggle.title = open ? 'Hide the panel' : 'Show the panel';
  panelToggle.textContent = open ? '\u2715' : '\u2630';
  renderer.retarget(state);
  kick();
}
panelToggle.addEventListener('click', () => setPanel(panel.classList.contains('collapsed')));
if (window.innerWidth <= 640) setPanel(false); // a phone: the layout first, the panel a tap away

// Enter in a number box commits it (change) instead of submitting the form
$('#params').addEventListener('submit', (e) => {
  e.preventDefault();
  if (document.activeElement instanceof HTMLInputElement) document.activeElement.blur();
});

const resized = () => {
  renderer.resize();
  strip.resize();
  renderer.retarget(state);
  kick();
};
new ResizeObserver(resized).observe(document.body);
// a window moved to a screen of another pixel ratio keeps its CSS size: watch the ratio too
(function watchPixelRatio() {
  window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
    resized();
    watchPixelRatio();
  }, { once: true });
}());
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  renderer.themeChanged();
  strip.themeChanged();
  kick();
});

resized();
refreshStatus();

// for tests and the console: read-only views of the model and the camera
window.forcelayout = {
  state,
  cellClientPosition(id) {
    const i = state.index.get(id);
    return i === undefined ? null : renderer.toClient(state.xy[2 * i], state.xy[2 * i + 1]);
  },
};
