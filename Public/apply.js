// The server's messages applied to the page's state (state.js): hello, frame, event, stats,
// error. Each takes a message as parsed JSON (a v2 binary frame: as binaryframe.js decodes
// it), never throws on shapes the protocol allows, ignores what it cannot use, and emits the
// change events of what it changed (state.js says how).
import { emitChanges, selectedIndex } from './state.js';
import { normalizeRuns, sameRuns } from './owners.js';
import { normalizeSpecs, sameSpecs } from './params.js';
import { isRoomName } from './room.js';
import { applyDataEvent, applyDataMessage, createCellData } from './celldata.js';
import { SECRET } from './links.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v) => typeof v === 'number' && Number.isFinite(v);

/**
 * Any server message: hello, frame, event, data, stats, error, role, pointer, undoable (others,
 * such as replay, history and moment, which rewind.js takes, are ignored).
 */
export function applyMessage(s, msg) {
  switch (msg.type) {
    case 'hello':
      return applyHello(s, msg);
    case 'frame':
      return applyFrame(s, msg);
    case 'event':
      return applyEvent(s, msg);
    case 'data':
      applyDataMessage(s.data, msg);
      return emitChanges(s, new Map([['data', { replaced: true }]]));
    case 'stats':
      return applyStats(s, msg);
    case 'error':
      return applyError(s, msg);
    case 'pointer': {
      const changes = new Map();
      if (applyPointer(s, msg)) changes.set('pointers', undefined);
      return emitChanges(s, changes);
    }
    case 'role': {
      const changes = new Map();
      applyStanding(s, msg, changes);
      return emitChanges(s, changes);
    }
    case 'undoable':
      return applyUndoable(s, msg);
    default:
  }
}

/**
 * An `undoable` ({count, next}): how many of this page's own changes the server can undo, and
 * the next one in words ("add 10 cells"); count 0 when none.
 */
export function applyUndoable(s, msg) {
  const count = Number.isSafeInteger(msg.count) && msg.count > 0 ? msg.count : 0;
  const next = count > 0 && typeof msg.next === 'string' && msg.next.trim() !== '' ? msg.next.trim() : null;
  if (s.undoable && s.undoable.count === count && s.undoable.next === next) return;
  s.undoable = { count, next };
  emitChanges(s, new Map([['undoable', undefined]]));
}

// sets s[key] and notes `type` in changes when the value differs
function update(s, key, value, changes, type = key) {
  if (s[key] === value) return;
  s[key] = value;
  changes.set(type, undefined);
}

/**
 * A `hello` (first message of every connection, also after a reconnect): connected, with
 * the client id, the room (`room` only when it differs from the one the address named),
 * params (then those of the replayed `params` and `failover` events), limits, clients, settled
 * and the pins, and the parameters' specs (`specs` only when they differ from the ones known:
 * a newer server); the membership waits for the full frame that follows. The replayed events
 * not shown yet (seq > lastSeq) go to `history`, restarted when the event seqs start over (a
 * new server process).
 */
export function applyHello(s, msg) {
  const changes = new Map([['connection', undefined], ['limits', undefined], ['params', undefined], ['pins', undefined]]);
  if (typeof msg.client === 'string') s.client = msg.client;
  s.connection = 'connected';
  if (isRoomName(msg.room)) update(s, 'room', msg.room, changes);
  if (isObject(msg.params)) s.params = { ...s.params, ...msg.params };
  if (isObject(msg.limits)) s.limits = { ...msg.limits };
  const specs = normalizeSpecs(msg.paramSpecs);
  if (!sameSpecs(specs, s.paramSpecs)) {
    s.paramSpecs = specs;
    changes.set('specs', undefined);
  }
  if (Number.isFinite(msg.clients)) update(s, 'clients', msg.clients, changes);
  applyStanding(s, msg, changes);
  if (typeof msg.settled === 'boolean') update(s, 'settled', msg.settled, changes);
  update(s, 'unsaved', msg.unsaved === true, changes);
  applyPhysics(s, msg, changes);
  // the room's pointers now (a reconnect forgets the old ones)
  const pointers = s.pointers.size;
  s.pointers = new Map();
  for (const p of Array.isArray(msg.pointers) ? msg.pointers : []) applyPointer(s, p);
  if (pointers > 0 || s.pointers.size > 0) changes.set('pointers', undefined);
  s.v = null; // the next frame carries ids; frames without them are meaningless until then
  // what this page may undo is its connection's own changes: a new connection has none yet
  if (s.undoable !== null) {
    s.undoable = null;
    changes.set('undoable', undefined);
  }
  // the room's data comes in its `data` message after hello (none when it has none)
  if (s.data.cells.size > 0 || s.data.links.size > 0) {
    s.data = createCellData();
    changes.set('data', undefined);
  }
  const events = Array.isArray(msg.events) ? msg.events.filter(isObject) : [];

  // The buffer's newest event is at least as new as anything this page saw from the same
  // server process; if it is older (or there is none) the server restarted and its seqs
  // started over.
  let maxSeq = 0;
  for (const ev of events) if (Number.isFinite(ev.seq) && ev.seq > maxSeq) maxSeq = ev.seq;
  const restarted = s.lastSeq > 0 && maxSeq < s.lastSeq;
  if (restarted) s.lastSeq = 0;

  // the pins of the server's last status, then the replayed history in order: the status
  // may be older than the newest events, never newer
  s.pinned = new Set();
  if (Array.isArray(msg.pinned)) for (const id of msg.pinned) if (isId(id)) s.pinned.add(id);
  for (const ev of events) trackPins(s, ev);
  // the parameters likewise: a `params` event carries the whole set, and so does a
  // `failover` (those of the state the server went on from); one from a server that did not
  // say them ends what came before it, and hello's stand
  for (const ev of events) {
    if (ev.kind === 'params' || ev.kind === 'failover') takeParams(s, ev, msg.params);
  }

  const fresh = takeNewEvents(s, events);
  if (restarted || fresh.length > 0) changes.set('history', { events: fresh, restarted });
  emitChanges(s, changes);
}

const ROLES = ['owner', 'editor', 'viewer'];
const ACCESS_MODES = ['open', 'view', 'private'];

/**
 * The page's role, the room's access and the links the page may hand on (`hello`, `role`): an
 * older server says none of them, and the page is an editor of an open room.
 */
export function applyStanding(s, msg, changes) {
  const role = ROLES.includes(msg.role) ? msg.role : 'editor';
  const access = ACCESS_MODES.includes(msg.access) ? msg.access : 'open';
  let links = null;
  if (isObject(msg.links) && SECRET.test(msg.links.edit) && SECRET.test(msg.links.view)) {
    links = { edit: msg.links.edit, view: msg.links.view };
    if (SECRET.test(msg.links.owner)) links.owner = msg.links.owner;
  }
  const same = s.role === role && s.access === access && JSON.stringify(s.links) === JSON.stringify(links);
  if (same) return;
  s.role = role;
  s.access = access;
  s.links = links;
  changes.set('access', undefined);
}

// The events not shown yet (seq > lastSeq, or no seq), remembering the highest seq.
function takeNewEvents(s, events) {
  const fresh = [];
  for (const ev of events) {
    if (Number.isFinite(ev.seq)) {
      if (ev.seq <= s.lastSeq) continue;
      s.lastSeq = ev.seq;
    }
    fresh.push(ev);
  }
  return fresh;
}

// Returns true when the pinned set changed.
function trackPins(s, ev) {
  const before = s.pinned.size;
  switch (ev.kind) {
    case 'pinned':
      if (isId(ev.id)) s.pinned.add(ev.id);
      break;
    case 'unpinned':
      s.pinned.delete(ev.id);
      break;
    case 'removed':
      if (Array.isArray(ev.ids)) for (const id of ev.ids) s.pinned.delete(id);
      break;
    case 'cleared':
      s.pinned.clear();
      break;
    case 'restored':
    case 'failover': {
      // another server went on from the room's last saved state (a restore: from a moment
      // of the past): its pins are these, when the event says
      if (ev.kind === 'restored' && !Array.isArray(ev.pinned)) return false;
      const pins = new Set((Array.isArray(ev.pinned) ? ev.pinned : []).filter(isId));
      const same = pins.size === s.pinned.size && [...pins].every((id) => s.pinned.has(id));
      s.pinned = pins;
      return !same;
    }
    default:
  }
  return s.pinned.size !== before;
}

// The parameters a `params` or `failover` event says (`otherwise`: a failover that says none).
function takeParams(s, ev, otherwise) {
  const params = isObject(ev.params) ? ev.params : ev.kind === 'failover' ? otherwise : null;
  if (isObject(params)) s.params = { ...s.params, ...params };
  return isObject(params);
}

/** A live `event`. Events already shown (seq <= lastSeq) change nothing. */
export function applyEvent(s, ev) {
  if (!isObject(ev) || takeNewEvents(s, [ev]).length === 0) return;
  const changes = new Map();
  if (trackPins(s, ev)) changes.set('pins', undefined);
  if (applyDataEvent(s.data, ev)) changes.set('data', undefined);
  switch (ev.kind) {
    case 'params':
    case 'failover':
      if (takeParams(s, ev, null)) changes.set('params', undefined);
      break;
    case 'settled':
    case 'woke':
      update(s, 'settled', ev.kind === 'settled', changes);
      break;
    case 'unsaved':
    case 'saved':
      update(s, 'unsaved', ev.kind === 'unsaved', changes);
      break;
    case 'joined':
    case 'left':
      if (Number.isFinite(ev.clients)) update(s, 'clients', ev.clients, changes);
      break;
    default:
  }
  changes.set('history', { events: [ev], restarted: false });
  emitChanges(s, changes);
}

const NAME_MAX = 32;

/**
 * A `pointer` ({client, id, name}): `client` points at cell `id` (null: no longer points).
 * Returns true when the pointers changed.
 */
export function applyPointer(s, msg) {
  if (!isObject(msg) || typeof msg.client !== 'string' || msg.client === '') return false;
  const before = s.pointers.get(msg.client);
  if (!isId(msg.id)) return s.pointers.delete(msg.client);
  const name = typeof msg.name === 'string' && msg.name.trim() !== '' ? msg.name.trim().slice(0, NAME_MAX) : null;
  if (before && before.id === msg.id && before.name === name) return false;
  s.pointers.set(msg.client, { id: msg.id, name });
  return true;
}

/** A `stats` message. */
export function applyStats(s, msg) {
  const changes = new Map([['stats', undefined]]);
  s.stats = { ...msg };
  if (Number.isFinite(msg.clients)) update(s, 'clients', msg.clients, changes);
  if (typeof msg.settled === 'boolean') update(s, 'settled', msg.settled, changes);
  update(s, 'unsaved', msg.unsaved === true, changes);
  applyPhysics(s, msg, changes);
  emitChanges(s, changes);
}

/** hello's or stats' `physics` ('cells' or 'graph') and `unfolding`: one `physics` change. */
function applyPhysics(s, msg, changes) {
  const physics = typeof msg.physics === 'string' ? msg.physics : null;
  const unfolding = msg.unfolding === true;
  if (s.physics === physics && s.unfolding === unfolding) return;
  s.physics = physics;
  s.unfolding = unfolding;
  changes.set('physics', undefined);
}

/** An `error`: the server refused a message of this page. */
function applyError(s, msg) {
  s.rejected = { ...msg };
  emitChanges(s, new Map([['rejected', undefined]]));
}

/**
 * A v1 `frame` (JSON). With ids it starts membership version v (and brings the owners);
 * without, it must be the current v, else it is ignored.
 */
export function applyFrame(s, msg) {
  const xy = msg.xy;
  if (!Array.isArray(xy) || xy.length % 2 !== 0) return;
  const ids = Array.isArray(msg.ids) ? msg.ids : null;
  const changes = new Map();
  if (!takeMembership(s, msg.v, ids, msg.owners, xy.length / 2, changes)) return;
  s.xy = toPositions(xy, s.xy);
  changes.set('positions', undefined);
  emitChanges(s, changes);
}

/**
 * A v2 binary frame as binaryframe.js decodes it ({v, n, ids, owners}: ids a Uint32Array or
 * null) and its positions `xy` (a Float64Array of 2n, dequantized): the same rules as a v1
 * frame. The state takes `xy` as its positions; returns whether it did (a frame of another
 * membership version is ignored).
 */
export function applyDecodedFrame(s, frame, xy) {
  if (!(xy instanceof Float64Array) || xy.length !== 2 * frame.n) return false;
  const ids = frame.ids ? Array.from(frame.ids) : null;
  const changes = new Map();
  if (!takeMembership(s, frame.v, ids, frame.owners, frame.n, changes)) return false;
  s.xy = xy;
  changes.set('positions', undefined);
  emitChanges(s, changes);
  return true;
}

// The membership part of a frame of n cells: with `ids` (an array, or null) it starts
// version v and brings the owners; without, the frame must be of the current v. Returns
// false when the frame is to be ignored.
function takeMembership(s, v, ids, owners, n, changes) {
  if (ids === null) return s.v !== null && v === s.v && n === s.ids.length;
  if (ids.length !== n) return false;
  if (!sameIds(s.ids, ids)) setMembership(s, ids, changes);
  const runs = normalizeRuns(owners);
  if (!sameRuns(runs, s.owners)) {
    s.owners = runs;
    changes.set('owners', undefined);
  }
  s.v = v;
  return true;
}

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function toPositions(xy, reuse) {
  const out = reuse && reuse.length === xy.length ? reuse : new Float64Array(xy.length);
  for (let i = 0; i < xy.length; i++) {
    const v = Number(xy[i]);
    out[i] = Number.isFinite(v) ? v : 0;
  }
  return out;
}

// New ids: pins, selection and hover follow (cells gone are no longer pinned or hovered).
function setMembership(s, ids, changes) {
  const oldIds = s.ids;
  const oldIndex = s.index;
  const beforeId = s.selectedId;
  const before = selectedIndex(s);
  s.ids = ids.slice();
  s.index = new Map();
  for (let i = 0; i < s.ids.length; i++) s.index.set(s.ids[i], i);
  const pins = s.pinned.size;
  for (const id of s.pinned) if (!s.index.has(id)) s.pinned.delete(id);
  if (s.pinned.size !== pins) changes.set('pins', undefined);
  update(s, 'selectedId', followSelection(s, oldIds, oldIndex), changes, 'selection');
  // the highlighted cell is gone: nothing is highlighted (the strip moves on to a neighbour)
  if (s.focused && s.group === null && s.selectedId !== beforeId) update(s, 'focused', false, changes, 'selection');
  const kept = beforeId !== null && beforeId === s.selectedId && before >= 0;
  changes.set('membership', { shift: kept ? selectedIndex(s) - before : 0 });
  if (s.hoveredId !== null && !s.index.has(s.hoveredId)) update(s, 'hoveredId', null, changes, 'hover');
}

// The selection follows its cell id; if that cell is gone, the nearest cell (in the old
// order) that is still there; with nothing selected before, the first cell.
function followSelection(s, oldIds, oldIndex) {
  const { ids, index } = s;
  if (ids.length === 0) return null;
  const sel = s.selectedId;
  if (sel === null) return ids[0];
  if (index.has(sel)) return sel;
  const at = oldIndex.get(sel);
  if (at === undefined) return ids[0];
  for (let d = 1; d < oldIds.length; d++) {
    if (at - d >= 0 && index.has(oldIds[at - d])) {
      // prefer the later neighbour on a tie: it moved into the removed cell's place
      if (at + d < oldIds.length && index.has(oldIds[at + d])) return oldIds[at + d];
      return oldIds[at - d];
    }
    if (at + d < oldIds.length && index.has(oldIds[at + d])) return oldIds[at + d];
  }
  return ids[Math.min(at, ids.length - 1)];
}
