// The page's state: the shared layout as the server tells it (apply.js feeds it the server's
// messages: params and their specs, membership and positions, owners, pins, clients, stats, the events to
// show), the room it is the layout of (from the page's address, then hello.room), and what
// is this page's own (the connection, the selected, hovered and dragged cell, the colour
// scheme), and the moment of the room's past it shows instead of the live layout (rewind.js),
// if any. Pure, no DOM.
//
// Every change goes through a function of this file or of apply.js, and each emits the
// change events of what it changed, once each, after the whole change is made, in the
// order of CHANGES: a `selection` listener already sees the membership that moved it.
// Listeners read the state; only `membership` and `history` carry a payload. `ids`, `owners`
// and `pinned` are replaced or changed only by these functions, and `ids` is replaced, never
// changed in place, so its identity marks a membership.
import { createEmitter } from './emitter.js';
import { ownerOf } from './owners.js';
import { createCellData } from './celldata.js';

export const CHANGES = [
  'connection', // connection ('connecting', 'reconnecting', 'connected' once hello came, 'refused': the room's access turned this page away), client
  'access', // role ('owner', 'editor', 'viewer'), access ('open', 'view', 'private'), links (the links this page may hand on, or null): hello, role
  'room', // room: the room's name, from the page's address until hello.room says it
  'limits', // limits, from hello
  'specs', // paramSpecs: the parameters' specs (params.js normalizeSpecs), from hello, when they differ
  'params', // params: the whole set
  'membership', // ids, index, v; payload {shift}: how far the selected cell's index moved (0 if it changed)
  'owners', // owners: who added which cells
  'pins', // pinned
  'data', // data: the cells' labels, radii, colours, groups, keys and the links (celldata.js); payload {replaced} for a `data` message
  'selection', // selectedId; focused (the user picked it: highlight and neighbours), hops (1 or 2), group (a legend group picked, or null)
  'positions', // xy: a frame came
  'clients', // clients
  'settled', // settled
  'unsaved', // unsaved: the server cannot write the room's state (its `unsaved` event, hello, stats)
  'physics', // physics: what moves the cells now, 'cells' or 'graph' (hello, stats), or null; unfolding: a multilevel layout unfolds
  'stats', // stats: the server's figures, once a second
  'history', // payload {events, restarted}: server events not shown before (a new server process: restarted)
  'undoable', // undoable: what this page's own changes the server can undo ({count, next}), or null (no `undoable` yet: an older server)
  'moment', // moment: the room's past shown instead of the live layout (rewind.js: {at, seq, ids, index, xy, data, params, pinned}), or null: live
  'pointers', // pointers: who points at which cell (Map client -> {id, name}), from hello and `pointer` messages
  'hover', // hoveredId: the cell under the mouse
  'drag', // dragging: the cell dragged here, {id, wx, wy, wasPinned}, or null
  'theme', // scheme: 'light' or 'dark'
  'rejected', // rejected: the server's last `error` (a message of this page it refused)
];

const emitters = new WeakMap();

export function createState({ scheme = 'light', room = 'main' } = {}) {
  const emitter = createEmitter(CHANGES);
  const s = {
    /** Listen to a change event (one of CHANGES). */
    on: emitter.on,
    connection: 'connecting',
    client: null, // my client id, from hello
    role: 'editor', // what this page may do in the room (links.js), from hello and role messages
    access: 'open', // the room's access
    links: null, // {owner?, edit, view}: the room's links this page's own link spells out, or null
    room, // the room's name (room.js)
    clients: 0,
    params: {},
    paramSpecs: [], // what each parameter is (name, kind, label, range, control), from hello
    limits: {},
    settled: true,
    unsaved: false,
    physics: null, // 'cells' or 'graph': the physics moving the cells (hello, stats); null from an older server
    unfolding: false, // a multilevel layout is unfolding (hello, stats)
    stats: null,
    v: null, // membership version of `ids`; null until a frame with ids arrived
    ids: [],
    index: new Map(), // id -> index in ids
    xy: new Float64Array(0), // x0,y0,x1,y1,… in the order of ids
    owners: [], // runs [client, first, last] of the cells' owners
    pinned: new Set(),
    data: createCellData(),
    selectedId: null,
    focused: false, // the selection was picked by the user (not the first cell by default): it is highlighted
    hops: 1, // neighbours highlighted: 1 or 2 links away
    group: null, // the group picked in the legend: its cells are highlighted
    pointers: new Map(), // client -> {id, name}: the cells people point at
    lastSeq: 0, // highest event seq shown in the log
    hoveredId: null,
    dragging: null,
    scheme,
    rejected: null,
    undoable: null, // {count, next}: this page's changes the server can undo (the `undoable` message)
    moment: null, // the moment of the past shown (rewind.js), null: the live layout
  };
  emitters.set(s, emitter);
  return s;
}

/** Emits the events of one change: `changes` maps event types to payloads. */
export function emitChanges(s, changes) {
  const emitter = emitters.get(s);
  for (const type of CHANGES) if (changes.has(type)) emitter.emit(type, changes.get(type));
}

// sets s[key] and emits `type` when the value differs
function change(s, key, value, type) {
  if (s[key] === value) return;
  s[key] = value;
  emitChanges(s, new Map([[type, undefined]]));
}

/**
 * What the connection reports: 'reconnecting' (and 'connecting'); 'open' changes nothing,
 * the page is connected once hello arrives (apply.js).
 */
export function setConnection(s, connection) {
  if (connection !== 'open') change(s, 'connection', connection, 'connection');
}

/** Select the cell at index i (clamped): the user picked it, so it is highlighted (focused). */
export function selectIndex(s, i) {
  if (s.ids.length === 0) return;
  const j = Math.min(Math.max(Math.round(Number(i) || 0), 0), s.ids.length - 1);
  if (s.selectedId === s.ids[j] && s.focused && s.group === null) return;
  s.selectedId = s.ids[j];
  s.focused = true;
  s.group = null;
  emitChanges(s, new Map([['selection', undefined]]));
}

/** Esc: nothing highlighted (the strip keeps its current cell). */
export function clearFocus(s) {
  if (!s.focused && s.group === null) return;
  s.focused = false;
  s.group = null;
  emitChanges(s, new Map([['selection', undefined]]));
}

/** Highlight the cells of `group` (a legend row), or none (null). */
export function selectGroup(s, group) {
  if (s.group === group && s.focused === (group !== null)) return;
  s.group = group;
  s.focused = group !== null;
  emitChanges(s, new Map([['selection', undefined]]));
}

/**
 * Show a moment of the room's past instead of the live layout ({at, seq, ids, index, xy,
 * data, params, pinned}: rewind.js), or the live layout again (null). The live state goes on
 * underneath, so going back to it is instant.
 */
export function setMoment(s, moment) {
  change(s, 'moment', moment ?? null, 'moment');
}

/**
 * Whether what this page does changes the room: not a viewer's page (the server would
 * refuse), and not while it shows the past (what it shows is not what a change would apply to).
 */
export function mayChange(s) {
  return s.role !== 'viewer' && s.moment === null;
}

/** The cell the user picked and sees highlighted, or null (nothing, or a group, is). */
export function pickedCell(s) {
  return s.focused && s.group === null ? s.selectedId : null;
}

/** The cells of the group picked in the legend, in membership order ([] when none is). */
export function groupMembers(s) {
  if (s.group === null) return [];
  return s.ids.filter((id) => s.data.cells.get(id)?.group === s.group);
}

/** How far the highlighted neighbours reach: 1 or 2 links. */
export function setHops(s, hops) {
  change(s, 'hops', hops === 2 ? 2 : 1, 'selection');
}

/** Select cell `id`, if it is in the layout. */
export function selectId(s, id) {
  const i = s.index.get(id);
  if (i !== undefined) selectIndex(s, i);
}

/** Index of the selected cell in the membership list, -1 when none. */
export function selectedIndex(s) {
  if (s.selectedId === null) return -1;
  const i = s.index.get(s.selectedId);
  return i === undefined ? -1 : i;
}

/** The cell under the mouse (null: none). */
export function setHover(s, id) {
  change(s, 'hoveredId', id, 'hover');
}

/** The cell dragged here and where the pointer holds it ({id, wx, wy, wasPinned}), or null. */
export function setDrag(s, dragging) {
  change(s, 'dragging', dragging, 'drag');
}

/** The colour scheme ('light' or 'dark'). */
export function setScheme(s, scheme) {
  change(s, 'scheme', scheme, 'theme');
}

/** A function id -> the client that added it (null: nobody known, a restored cell). */
export function ownerLookup(s) {
  const runs = s.owners;
  return (id) => ownerOf(runs, id);
}
