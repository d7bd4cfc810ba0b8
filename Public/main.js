// The page's wiring, in order and with no forward references: the state (state.js), the
// connection that feeds it (net.js, receive.js), then every part of the page, each following
// the state's change events from the moment it is made: the canvas (renderer, painter,
// hands), the strip, the controls, the status line, the legend, the log, the room's name,
// address and switcher, import and export. The room is the one the page's address names (room.js). Nothing here
// redraws by hand: the renderer and the strip wake the frame loop when they have something
// new to draw. The connection never calls back before this module has run to its end.
import { SUBPROTOCOLS, connect, socketUrl } from './net.js';
import { createState, selectIndex, selectedIndex, setConnection, setScheme } from './state.js';
import { createReceiver } from './receive.js';
import { createPerf } from './perf.js';
import { createFrames } from './frames.js';
import { createInterpolator } from './interpolate.js';
import { createScene } from './scene.js';
import { createRenderer } from './render.js';
import { createPainter } from './painter.js';
import { createHands } from './hands.js';
import { createStrip } from './strip.js';
import { createPanel } from './panel.js';
import { createControls } from './controls.js';
import { createStatus } from './status.js';
import { createLegend } from './legend.js';
import { createLog } from './log.js';
import { createNotice } from './notice.js';
import { createTooltip } from './tooltip.js';
import { createPerfPanel } from './perfpanel.js';
import { createRoomLabel } from './roomlabel.js';
import { createShare } from './share.js';
import { createShareLinks } from './sharelinks.js';
import { accessClose, chooseKey, offer, storeOwner } from './links.js';
import { createRoomSwitcher } from './rooms.js';
import { createImportPanel } from './importpanel.js';
import { roomFromPath } from './room.js';
import { keyAction, targetKind } from './keys.js';
import { describeError } from './wording.js';

const $ = (sel) => document.querySelector(sel);
const dark = window.matchMedia('(prefers-color-scheme: dark)');
const schemeNow = () => (dark.matches ? 'dark' : 'light');

// ---- the state and the connection that feeds it ----

const room = roomFromPath(location.pathname);
const state = createState({ scheme: schemeNow(), room });
const perf = createPerf();
const receiver = createReceiver(state, perf);
const notice = createNotice($('#notice'));
// The room's key: the link the address names, else the owner's secret this browser keeps
// (links.js). Offered in the handshake, never in a URL.
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null; // refused (a sandboxed frame): owners are not remembered
  }
})();
let key = chooseKey(location.hash, storage, room);
const net = connect({
  url: socketUrl(location, room),
  protocols: () => offer(SUBPROTOCOLS, key?.secret),
  onMessage: receiver.onMessage,
  onBinary: receiver.onBinary,
  onState: (connection) => setConnection(state, connection),
  onBytes: perf.received,
  onClose({ code }) {
    const closed = accessClose(code, room, { hadKey: key !== null });
    if (!closed) return undefined;
    notice.show(closed.message, { sticky: !closed.retry, seconds: 10 });
    if (!closed.retry || !key) return 'stop';
    // The key no longer opens the room: forget it, and come back as whoever has none.
    if (key.from === 'stored') storeOwner(storage, room, null);
    else history.replaceState(null, '', location.pathname + location.search);
    key = null;
    return undefined;
  },
});
// The maker of a room keeps its owner's secret in this browser (never in the address bar).
state.on('access', () => {
  if (state.links?.owner) {
    storeOwner(storage, room, state.links.owner);
    if (key?.from !== 'address') key = { secret: state.links.owner, from: 'stored' };
  }
});
state.on('rejected', () => notice.show(describeError(state.rejected)));

/** Send what the user asked for; when it cannot go, say so. */
function ask(msg) {
  if (net.send(msg)) return true;
  notice.show('Not connected: waiting for the server');
  return false;
}

// ---- the canvas and the strip ----

const canvas = $('#layout');
const frames = createFrames();
const interp = createInterpolator();
const scene = createScene(state, interp);
const renderer = createRenderer(canvas, state, { onChange: frames.wake });
const strip = createStrip($('#strip'), state, { label: $('#strip-label'), onChange: frames.wake });
createPainter({ state, frames, interp, scene, renderer, strip, perf });
state.on('selection', () => {
  document.body.dataset.selected = state.selectedId === null ? '' : String(state.selectedId);
});

const fitButton = $('#fit');
function showFit() {
  fitButton.hidden = renderer.mode !== 'manual';
  document.body.dataset.camera = renderer.mode;
}
function fit() {
  renderer.fit();
  showFit();
}
fitButton.addEventListener('click', fit);

createHands({ canvas, renderer, scene, state, tooltip: createTooltip($('#tooltip')), send: net.send, ask, onCamera: showFit });

// ---- the panel and what follows the state there ----

const panelEl = $('#panel');
const panel = createPanel(panelEl, $('#panel-toggle'), { onInsets: renderer.setInsets });
createControls(panelEl, state, { send: ask });
createStatus($('#status'), state);
createLegend($('#legend'), state, scene.paintOf);
createLog($('#log'), state, { max: 50 });
createRoomLabel($('#room-name'), state);
const copier = createShare({ link: $('#share-link'), button: $('#share-copy'), note: $('#share-note') }, state);
createShareLinks({
  root: $('#access'), note: $('#role-note'), copies: [...document.querySelectorAll('#access [data-copy]')],
  accessSelect: $('#access-mode'), rotate: $('#rotate-links'), remove: $('#delete-room'),
}, state, {
  send: ask,
  copier,
  confirmRotate: () => window.confirm('Make new edit and view links? The old ones stop working, and whoever came with them is disconnected.'),
  confirmDelete: () => window.confirm(`Delete room \u201c${room}\u201d for everyone? Everyone is disconnected and its links stop working.`),
});
createRoomSwitcher($('#rooms'), $('#rooms-toggle'), state, { onOpen: panel.open });
createImportPanel({
  button: $('#import-button'), input: $('#import-file'), progress: $('#import-progress'), status: $('#import-status'),
  exportLink: $('#export-link'), dropTarget: document.body,
}, state, { send: ask, key: () => key?.secret ?? null });

// Enter in a number box commits it (change) instead of submitting the form
$('#params').addEventListener('submit', (e) => {
  e.preventDefault();
  if (document.activeElement instanceof HTMLInputElement) document.activeElement.blur();
});

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
      panelEl.querySelector(`button[data-action="${action}"]`)?.click();
      break;
    case 'prev':
    case 'next': {
      const i = selectedIndex(state);
      selectIndex(state, i < 0 ? 0 : i + (action === 'next' ? 1 : -1));
      break;
    }
    case 'fit':
      fit();
      break;
    default:
  }
});

// ---- sizes, pixel ratio, colour scheme ----

function resized() {
  panel.measure();
  renderer.resize();
  strip.resize();
}
new ResizeObserver(resized).observe(document.body);
// a window moved to a screen of another pixel ratio keeps its CSS size: watch the ratio too
(function watchPixelRatio() {
  window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
    resized();
    watchPixelRatio();
  }, { once: true });
}());
dark.addEventListener('change', () => setScheme(state, schemeNow()));

resized();
showFit();

if (new URLSearchParams(location.search).has('perf')) createPerfPanel($('#perf'), () => perf.read(state));

// for tests and the console: read-only views of the model, the camera and the figures
window.forcelayout = {
  state,
  /** Client (CSS px) position where cell `id` is drawn now, null when it is not. */
  cellClientPosition(id) {
    const drawn = scene.scene;
    let i = drawn.index.get(id);
    if (i !== undefined && i < drawn.count) return renderer.toClient(drawn.xy[2 * i], drawn.xy[2 * i + 1]);
    i = state.index.get(id);
    return i === undefined ? null : renderer.toClient(state.xy[2 * i], state.xy[2 * i + 1]);
  },
  camera() {
    return { mode: renderer.mode, ...renderer.camera };
  },
  perf: () => perf.read(state),
  /** The subprotocol the server chose: 'forcelayout.v2' (binary frames), 'forcelayout.v1', '' when not connected. */
  protocol: () => net.protocol,
};
