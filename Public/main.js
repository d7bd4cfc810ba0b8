// Wiring: the connection feeds the state and the interpolator; each animation frame draws
// the interpolated scene (canvas) and the strip; the state also feeds the controls, the
// status line, the legend and the log. The loop runs only while something moves or changed.
import { connect, socketUrl } from './net.js';
import {
  applyEvent, applyFrame, applyHello, applyStats, cellCount, createState, ownerLookup, selectIndex, selectedIndex,
} from './state.js';
import { createInterpolator, maxDelta } from './interpolate.js';
import { createScene } from './scene.js';
import { createRenderer } from './render.js';
import { createPointers } from './pointers.js';
import { createStrip } from './strip.js';
import { createControls } from './controls.js';
import { createStatus } from './status.js';
import { createLog } from './log.js';
import { createNotice } from './notice.js';
import { createTooltip } from './tooltip.js';
import { createLegend } from './legend.js';
import { createPerfPanel } from './perfpanel.js';
import { createMean, createRate } from './perf.js';
import { keyAction, targetKind } from './keys.js';
import { describeOwner } from './owners.js';
import { describeError, describeEvent, eventKey } from './wording.js';
import { throttle } from './throttle.js';

const $ = (sel) => document.querySelector(sel);

const state = createState();
const interp = createInterpolator();
const canvas = $('#layout');
const panel = $('#panel');
const panelToggle = $('#panel-toggle');
const fitButton = $('#fit');
const status = createStatus($('#status'));
const log = createLog($('#log'), { max: 50 });
const notice = createNotice($('#notice'));
const tooltip = createTooltip($('#tooltip'));
const legend = createLegend($('#legend'));
let connection = 'connecting';
let dragging = null; // the cell dragged here: {id, wx, wy, wasPinned}
let hoveredId = null;

// ---- figures for ?perf and window.forcelayout.perf() ----

const perf = {
  draws: createRate(2000),
  frames: createRate(2000),
  bytes: createRate(2000),
  drawMs: createMean(2000),
};

function perfNow() {
  const t = performance.now();
  return {
    fps: perf.draws.rate(t),
    framesPerSecond: perf.frames.rate(t),
    kbPerSecond: perf.bytes.rate(t) / 1000,
    tickMs: Number.isFinite(state.stats?.tickMs) ? state.stats.tickMs : null,
    drawMs: perf.drawMs.mean(t),
    cells: cellCount(state),
  };
}

// ---- what is drawn: the interpolated positions, coloured by owner (scene.js) ----

const { scene, update: updateSceneAt, paintOf: paintFor } = createScene(state, interp);
const updateScene = (now) => updateSceneAt(now, { scheme: renderer.scheme, hoveredId, dragging });
const paintOf = (ids) => paintFor(ids, renderer.scheme);

// ---- drawing loop ----

let raf = 0;
let lastT = 0;
let wasMoving = false;
let fresh = false; // a frame arrived since the last draw
let drawnIds = null; // what the canvas shows: membership and positions
let drawnXY = new Float64Array(0);
function kick() {
  if (!raf) raf = requestAnimationFrame(loop);
}
// Positions changed by a quarter of a device pixel or more since the last draw? A big layout
// at rest still jiggles by hundredths of a pixel per step: no need to redraw it 60 times a second.
function visiblyMoved() {
  if (scene.ids !== drawnIds || drawnXY.length < 2 * scene.count) return true;
  const devicePxPerUnit = renderer.camera.scale * (window.devicePixelRatio || 1);
  return maxDelta(scene.xy, drawnXY, 2 * scene.count) * devicePxPerUnit >= 0.25;
}
function loop(t) {
  raf = 0;
  const dt = lastT ? Math.min(0.1, (t - lastT) / 1000) : 1 / 60;
  const moving = updateScene(t);
  const changed = !!dragging || ((moving || wasMoving || fresh) && visiblyMoved());
  const r = renderer.frame(dt, scene, changed);
  if (r.drawn) {
    const now = performance.now();
    perf.draws.add(now);
    perf.drawMs.add(now, renderer.lastDraw.ms);
    const n = 2 * scene.count;
    if (drawnXY.length < n) drawnXY = new Float64Array(n);
    drawnXY.set(scene.xy.subarray(0, n));
    drawnIds = scene.ids;
  }
  wasMoving = moving;
  fresh = false;
  const b = strip.frame(dt);
  if (r.moving || moving || b) {
    lastT = t;
    kick();
  } else {
    lastT = 0;
  }
}

// the part of the canvas not under the panel: beside it in wide windows, below its header
// in narrow ones (opened there, it overlays); measured when sizes change, not every draw
let inset = { top: 0, right: 0, bottom: 0, left: 0 };
function measureInsets() {
  const collapsed = panel.classList.contains('collapsed');
  const narrow = window.innerWidth <= 640;
  inset = {
    top: narrow && collapsed ? panel.offsetTop + panel.offsetHeight : 0,
    right: narrow || collapsed ? 0 : panel.offsetWidth + 24,
    bottom: 0,
    left: 0,
  };
}
function insets() {
  return inset;
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

function refreshLegend() {
  const p = paintOf(state.ids);
  legend.update(p.owners.map((client, s) => ({ client, count: p.counts[s], css: p.palette.css[s] })), state.client);
}

function showFit() {
  fitButton.hidden = renderer.mode !== 'manual';
  document.body.dataset.camera = renderer.mode;
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
    for (const ev of events) log.add(describeEvent(ev), { seq: ev.seq, kind: ev.kind, key: eventKey(ev), time: new Date(ev.at) });
    controls.setLimits(state.limits);
    controls.setParams(state.params);
    controls.setEnabled(true);
    renderer.retarget(state);
    renderer.invalidate();
    refreshStatus();
    kick();
  },
  frame(msg) {
    const beforeId = state.selectedId;
    const before = selectedIndex(state);
    const runs = state.owners;
    perf.frames.add(performance.now());
    const r = applyFrame(state, msg);
    if (!r.applied) return;
    interp.push(performance.now(), state.ids, state.xy);
    fresh = true;
    if (r.membership) {
      const after = selectedIndex(state);
      syncStrip(beforeId !== null && beforeId === state.selectedId && before >= 0 ? after - before : 0);
      document.body.dataset.selected = state.selectedId === null ? '' : String(state.selectedId);
      if (hoveredId !== null && !state.index.has(hoveredId)) showHover(null);
      refreshStatus();
    }
    if (r.membership || runs !== state.owners) refreshLegend();
    renderer.retarget(state);
    kick();
  },
  event(msg) {
    const r = applyEvent(state, msg);
    if (!r.show) return;
    log.add(describeEvent(msg), { seq: msg.seq, kind: msg.kind, key: eventKey(msg), time: new Date(msg.at) });
    if (r.params) {
      controls.setParams(state.params);
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
  onBytes(n) {
    perf.bytes.add(performance.now(), n);
  },
  onMessage(msg) {
    const handle = typeof msg.type === 'string' && Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
    if (handle) handle(msg);
  },
  onState(s) {
    if (s === 'open') return; // connected once hello arrives
    connection = s;
    if (s === 'reconnecting') {
      controls.setEnabled(false);
      pointers.cancel();
    }
    refreshStatus();
  },
});

// ---- pointer on the canvas: select, drag (held at the pointer, released on drop),
// double-click / double-tap toggles a pin, pan / pinch / wheel move the camera ----

const sendPin = throttle((id, x, y) => net.send({ type: 'pin', id, x, y }), 33);
const round1 = (v) => Math.round(v * 10) / 10;

function cellAt(clientX, clientY) {
  const i = renderer.hit(clientX, clientY, scene);
  return i < 0 ? null : scene.ids[i];
}

function showHover(id, clientX, clientY) {
  if (id !== hoveredId) {
    hoveredId = id;
    canvas.classList.toggle('over-cell', id !== null);
    renderer.invalidate();
    kick();
  }
  if (id === null) {
    tooltip.hide();
    return;
  }
  const owner = ownerLookup(state)(id);
  const pinned = state.pinned.has(id) ? ' · pinned' : '';
  tooltip.show(`Cell ${id} · ${describeOwner(owner, state.client)}${pinned}`, clientX, clientY);
}

const pointers = createPointers(canvas, renderer, {
  cellAt,
  select(id) {
    const i = state.index.get(id);
    if (i !== undefined && selectIndex(state, i)) selectionChanged();
  },
  dragStart(id) {
    dragging = { id, wx: 0, wy: 0, wasPinned: state.pinned.has(id) };
    renderer.freeze(true);
    canvas.classList.add('dragging');
    tooltip.hide();
  },
  dragMove(id, clientX, clientY) {
    const [wx, wy] = renderer.toWorld(clientX, clientY);
    dragging.wx = round1(wx);
    dragging.wy = round1(wy);
    sendPin.call(id, dragging.wx, dragging.wy);
    renderer.invalidate();
    kick();
  },
  dragEnd(id, { cancelled }) {
    const d = dragging;
    dragging = null;
    canvas.classList.remove('dragging');
    if (d) {
      // a cell pinned before the drag stays pinned where it is dropped; any other is let go
      if (d.wasPinned && !cancelled) sendPin.flush(id, d.wx, d.wy);
      else {
        sendPin.cancel();
        net.send({ type: 'unpin', id });
      }
    }
    renderer.freeze(false, state);
    renderer.invalidate();
    kick();
  },
  doubleTap(id) {
    if (state.pinned.has(id)) {
      send({ type: 'unpin', id });
      return;
    }
    const i = scene.index.get(id);
    if (i === undefined) return;
    send({ type: 'pin', id, x: round1(scene.xy[2 * i]), y: round1(scene.xy[2 * i + 1]) });
  },
  hover: showHover,
  cameraMoved() {
    showFit();
    kick();
  },
});

function fit() {
  renderer.fit(state);
  showFit();
  kick();
}
fitButton.addEventListener('click', fit);

// ---- keyboard: + - space arrows f (keys.js says where they apply) ----

document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented) return;
  const action = keyAction(e, targetKind(e.target instanceof Element ? e.target : {}));
  if (!action) return;
  e.preventDefault();
  if (e.repeat && action !== 'prev' && action !== 'next') return; // a held key adds once
  switch (action) {
    case 'add':
    case 'remove':
    case 'pause':
      panel.querySelector(`button[data-action="${action}"]`)?.click();
      break;
    case 'prev':
    case 'next': {
      const i = selectedIndex(state);
      if (selectIndex(state, i < 0 ? 0 : i + (action === 'next' ? 1 : -1))) selectionChanged();
      break;
    }
    case 'fit':
      fit();
      break;
    default:
  }
});

// ---- panel, sizes, theme ----

function setPanel(open) {
  panel.classList.toggle('collapsed', !open);
  panelToggle.setAttribute('aria-expanded', String(open));
  panelToggle.title = open ? 'Hide the panel' : 'Show the panel';
  panelToggle.textContent = open ? '\u2715' : '\u2630';
  measureInsets();
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
  measureInsets();
  renderer.resize();
  strip.resize();
  renderer.retarget(state);
  kick();
};
new ResizeObserver(resized).observe(document.body);
new ResizeObserver(() => {
  const before = inset;
  measureInsets();
  if (inset.top !== before.top || inset.right !== before.right) {
    renderer.retarget(state);
    kick();
  }
}).observe(panel);
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
  refreshLegend();
  kick();
});

resized();
refreshStatus();
showFit();

if (new URLSearchParams(location.search).has('perf')) createPerfPanel($('#perf'), perfNow);

// for tests and the console: read-only views of the model, the camera and the figures
window.forcelayout = {
  state,
  /** Client (CSS px) position where cell `id` is drawn now, null when it is not. */
  cellClientPosition(id) {
    let i = scene.index.get(id);
    if (i !== undefined && i < scene.count) return renderer.toClient(scene.xy[2 * i], scene.xy[2 * i + 1]);
    i = state.index.get(id);
    return i === undefined ? null : renderer.toClient(state.xy[2 * i], state.xy[2 * i + 1]);
  },
  camera() {
    return { mode: renderer.mode, ...renderer.camera };
  },
  perf: perfNow,
};
