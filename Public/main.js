// The page's wiring, in order and with no forward references: the state (state.js), the
// connection that feeds it (net.js, receive.js), then every part of the page, each following
// the state's change events from the moment it is made: the canvas (renderer, painter,
// hands), the strip, the controls, the status line, the legend, the log, the room's name,
// address and switcher, import and export, pictures and video, undo, the timeline of the
// room's past. The room is the one the page's address names (room.js). Nothing here
// redraws by hand: the renderer and the strip wake the frame loop when they have something
// new to draw. The connection never calls back before this module has run to its end.
import { SUBPROTOCOLS, connect, socketUrl } from './net.js';
import {
  clearFocus, createState, groupMembers, pickedCell, selectGroup, selectId, selectIndex, selectedIndex, setConnection, setScheme,
} from './state.js';
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
import { createPlayPanel } from './playpanel.js';
import { createRecordingLinks } from './recordinglinks.js';
import { roomFromPath } from './room.js';
import { keyAction, targetKind } from './keys.js';
import { createNeighbours } from './neighbours.js';
import { createFocus } from './focus.js';
import { createPointing } from './pointing.js';
import { createSearchBox } from './searchbox.js';
import { createSelectionPanel } from './selectionpanel.js';
import { createPictures } from './pictures.js';
import { createEmptyRoom } from './emptyroom.js';
import { viewFromHash, viewHash, viewLinkKey } from './viewlink.js';
import { roomUrl } from './room.js';
import { zoomAt } from './camera.js';
import { describeError } from './wording.js';
import { createRewind } from './rewind.js';
import { createTimelineBar } from './timelinebar.js';
import { createUndo } from './undo.js';
import { createRecorder } from './recorder.js';

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
// the room's past: the timeline's events and the moment shown instead of the live layout
// (it sends through the connection made next, only once that hears something)
const rewind = createRewind({ state, send: (msg) => net.send(msg) });
const net = connect({
  url: socketUrl(location, room),
  protocols: () => offer(SUBPROTOCOLS, key?.secret),
  // the past's answers go to the timeline (rewind.js), the rest to the state
  onMessage: (msg) => rewind.take(msg) || receiver.onMessage(msg),
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
const neighbours = createNeighbours(() => state.data);
const focus = createFocus({ state, neighbours });
const renderer = createRenderer(canvas, state, { onChange: frames.wake, overlays: [focus.overlay] });
for (const type of ['pointers', 'selection']) state.on(type, renderer.invalidate);
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

// ---- finding, highlighting, pointing ----

// the panel first: the search opens it, and closes it on a phone to show the cell it went to
const panelEl = $('#panel');
const panel = createPanel(panelEl, $('#panel-toggle'), { onInsets: renderer.setInsets });

const pointing = createPointing({ state, send: ask, storage });

/** World bounds of the cells `ids` as drawn now (null: none drawn). */
function boundsOf(ids) {
  const drawn = scene.scene;
  let b = null;
  for (const id of ids) {
    const i = drawn.index.get(id);
    if (i === undefined || i >= drawn.count) continue;
    const x = drawn.xy[2 * i];
    const y = drawn.xy[2 * i + 1];
    if (!b) b = { minX: x, minY: y, maxX: x, maxY: y };
    else {
      b.minX = Math.min(b.minX, x);
      b.minY = Math.min(b.minY, y);
      b.maxX = Math.max(b.maxX, x);
      b.maxY = Math.max(b.maxY, y);
    }
  }
  return b;
}

/** Glide the camera to frame `ids`, showing at least `cells` cell sizes around them. */
function frameCells(ids, cells = 8) {
  const b = boundsOf(ids);
  if (!b) return;
  const size = Number(state.params.cellSize) || 20;
  renderer.flyTo(renderer.framing({ minX: b.minX - size, minY: b.minY - size, maxX: b.maxX + size, maxY: b.maxY + size }, size * cells));
  showFit();
}

/** Select cell `id`, fly there and pulse it: where the search and a shared view go. */
function goTo(id) {
  selectId(state, id);
  frameCells([id], 14);
  focus.pulse(id);
  frames.wake();
}

function fitSelection() {
  if (!state.focused) return;
  if (state.group !== null) frameCells(groupMembers(state));
  else if (state.selectedId !== null) frameCells(neighbours.of(state.selectedId, state.hops).cells);
}

const search = createSearchBox({ input: $('#find'), list: $('#find-results'), note: $('#find-note') }, state, {
  onGo(id) {
    panel.reveal(); // a phone: the panel covers the layout, and the cell is what was asked for
    goTo(id);
  },
});
createSelectionPanel($('#selection'), state, { neighbours, pointing, onFit: fitSelection, onPoint: pointing.toggle });
// a group in the legend: its cells are highlighted (again: no longer)
$('#legend').addEventListener('click', (e) => {
  const row = e.target.closest('[data-group]');
  if (row) selectGroup(state, state.group === row.dataset.group ? null : row.dataset.group);
});

createHands({
  canvas, renderer, scene, state, tooltip: createTooltip($('#tooltip')), send: net.send, ask, onCamera: showFit, neighbours,
  point: (id) => {
    pointing.point(id);
    notice.show('Pointing here for everyone in the room', { seconds: 3 });
  },
});

// ---- a view in the address: #at=X,Y,ZOOM&select=ID (viewlink.js) ----

// The view the address names now: its camera at once, its cell once it is in the layout (the
// camera stays where the view put it). Again when the address's fragment changes (a view link
// pasted into this window).
let wanted = null; // the cell a view selects, until it is in the layout
function openView() {
  const view = viewFromHash(location.hash);
  if (view.at) renderer.setCamera(view.at);
  showFit();
  wanted = view.select === null ? null : { id: view.select, fly: !view.at };
  selectWanted();
}
function selectWanted() {
  if (wanted === null || !state.index.has(wanted.id)) return;
  if (wanted.fly) goTo(wanted.id);
  else selectId(state, wanted.id);
  wanted = null;
}
state.on('membership', selectWanted);
window.addEventListener('hashchange', openView);
openView();

// ---- the panel and what follows the state there ----

createControls(panelEl, state, {
  send: ask,
  confirmClear: (n) => window.confirm(`Remove all ${n.toLocaleString('en-US')} cells of room \u201c${room}\u201d for everyone in it?`),
});
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
const importChoice = $('#import-choice');
const playPanel = createPlayPanel({
  button: $('#import-button'), progress: $('#import-progress'), status: $('#import-status'), stop: $('#play-stop'), speed: $('#play-speed'),
}, state, {
  send: ask,
  confirmReplace: (n) => window.confirm(`Replace the ${n.toLocaleString('en-US')} cells here? A recording is played into an empty room: `
    + `room \u201c${room}\u201d is cleared first, for everyone in it.`),
});
const importPanel = createImportPanel({
  button: $('#import-button'), input: $('#import-file'), progress: $('#import-progress'), status: $('#import-status'),
  exportLink: $('#export-link'), dropTarget: document.body,
}, state, {
  send: ask,
  key: () => key?.secret ?? null,
  play: playPanel,
  // the room has cells: replace them with the graph, or add it beside them?
  chooseMode: ({ name, cells, roomCells }) => new Promise((resolve) => {
    importChoice.querySelector('[data-part="text"]').textContent = `Room \u201c${room}\u201d has ${roomCells.toLocaleString('en-US')} cells. `
      + `Replace them with the ${cells.toLocaleString('en-US')} nodes of ${name} (for everyone in the room), or add the graph beside them?`;
    importChoice.addEventListener('close', () => resolve(importChoice.returnValue), { once: true });
    importChoice.returnValue = 'cancel';
    importChoice.showModal();
  }),
});
createPictures({ png: $('#picture-png'), svg: $('#picture-svg'), scale: $('#picture-scale') }, state, {
  renderer, scene, say: (text, kind) => importPanel.say(text, kind),
});
const recorder = createRecorder($('#record'), canvas, state, {
  say: (text, kind) => importPanel.say(text, kind),
  onDraw: renderer.invalidate,
});
const undo = createUndo($('#undo'), state, { send: ask, say: (text) => notice.show(text) });
const timelineBar = createTimelineBar({
  root: $('#timeline'), toggle: $('#history-toggle'), text: $('#past [data-part="text"]'),
  liveButton: $('#past-live'), restoreButton: $('#past-restore'), closeButton: $('#timeline-close'),
  track: $('#timeline-track'), list: $('#timeline-changes'),
}, state, rewind, {
  confirmRestore: (time) => window.confirm(`Make room \u201c${room}\u201d what it was at ${time}, for everyone in it? What changed since can be found on the timeline.`),
  onResize: resized,
  say: (text) => notice.show(text, { seconds: 3 }),
});
createRecordingLinks({ whole: $('#past-save'), since: $('#past-save-since') }, state, {
  key: () => key?.secret ?? null,
  say: (text) => notice.show(text, { seconds: 5 }),
});
const copyView = $('#view-copy');
copyView.addEventListener('click', async () => {
  const { link, needsLink } = viewLinkKey(state.access, state.links, location.hash);
  const url = roomUrl(location, room) + viewHash(renderer.camera, pickedCell(state), link);
  const result = await copier.copy(url, { button: copyView, what: 'Link to this view' });
  if (result === 'copied' && needsLink) copier.say('Link to this view copied: this room is private, so whoever opens it needs a link from its owner too');
});
createEmptyRoom($('#empty'), state, {
  add: () => ask({ type: 'add', count: 10 }),
  importFile: () => $('#import-button').click(),
  share: (button) => copier.copy($('#share-link').href, { button, selectable: $('#share-link') }),
});

// Enter in a number box commits it (change) instead of submitting the form
$('#params').addEventListener('submit', (e) => {
  e.preventDefault();
  if (document.activeElement instanceof HTMLInputElement) document.activeElement.blur();
});

// ---- keyboard: + - space arrows f h r Ctrl+Z (keys.js says where they apply) ----

document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented) return;
  const t = e.target instanceof Element ? e.target : null;
  const action = keyAction(e, targetKind(t ? {
    tagName: t.tagName, type: t.type, isContentEditable: t.isContentEditable, id: t.id, role: t.getAttribute('role') ?? '',
  } : {}));
  if (!action) return;
  e.preventDefault();
  if (e.repeat && action !== 'prev' && action !== 'next') return; // a held key adds (undoes) once
  switch (action) {
    case 'add':
    case 'pause':
      panelEl.querySelector(`button[data-action="${action}"]`)?.click();
      break;
    case 'zoomIn':
    case 'zoomOut': {
      const v = renderer.view();
      renderer.setCamera(zoomAt(renderer.camera, v, v.x + v.w / 2, v.y + v.h / 2, action === 'zoomIn' ? 1.25 : 0.8));
      showFit();
      break;
    }
    case 'find':
      panel.open?.();
      search.focus();
      break;
    case 'clearFocus':
      clearFocus(state);
      break;
    case 'point':
      pointing.toggle(pickedCell(state));
      break;
    case 'fitSelection':
      fitSelection();
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
    case 'history':
      timelineBar.toggle();
      break;
    case 'undo':
      undo.undo();
      break;
    case 'record':
      recorder.toggle();
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
// the body, and the canvas alone: the timeline opening under it takes its height
const sizes = new ResizeObserver(resized);
sizes.observe(document.body);
sizes.observe(canvas);
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
  /** The cell ids highlighted now (the selection and its neighbours, or a group), [] when none. */
  highlighted() {
    if (!state.focused) return [];
    if (state.group !== null) return groupMembers(state);
    return [...neighbours.of(state.selectedId, state.hops).cells];
  },
  /** The subprotocol the server chose: 'forcelayout.v2' (binary frames), 'forcelayout.v1', '' when not connected. */
  protocol: () => net.protocol,
  /**
   * The timeline: {opened, at (the time shown, null: live), shown (the moment drawn's time, or
   * null), events (held), more, figures: how long moments took to come and this page's work
   * on them ({answers, meanMs, maxMs, buildMeanMs, buildMaxMs, kinds}: scrub.js)}.
   */
  timeline: () => ({
    opened: rewind.opened, at: rewind.at, shown: state.moment?.at ?? null, events: rewind.timeline.events.length,
    more: rewind.timeline.more, figures: rewind.figures(),
  }),
  /** How many cells the canvas draws now: the live layout's, or the moment's of the past shown. */
  drawnCells: () => scene.scene.count,
  /** Go to time `at` of the room's past (server ms), or live (null): what the timeline's handle does. */
  goTo: (at) => (at === null ? rewind.live() : rewind.goTo(at)),
};
