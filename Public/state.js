// The page's model of the shared layout, fed by the server's messages: params, membership
// (ids of version v) and positions, pinned cells, clients, stats, the selected cell, and the
// highest event seq already shown, and who added which cell. Pure, no DOM: every apply*
// takes a message as parsed JSON, never throws on shapes the protocol allows, and says what
// changed. `ids` is replaced, never changed in place, so its identity marks a membership.
import { normalizeRuns, ownerOf, sameRuns } from './owners.js';

export function createState() {
  return {
    client: null, // my client id, from hello
    clients: 0,
    params: {},
    limits: {},
    tick: 0,
    settled: true,
    stats: null,
    v: null, // membership version of `ids`; null until a frame with ids arrived
    ids: [],
    index: new Map(), // id -> index in ids
    xy: new Float64Array(0), // x0,y0,x1,y1,… in the order of ids
    pinned: new Set(),
    selectedId: null,
    lastSeq: 0, // highest event seq shown in the log
    owners: [], // who added which cells: runs [client, first, last], replaced (never changed) when they change
  };
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v) => typeof v === 'number' && Number.isFinite(v);

/**
 * A `hello` (first message of every connection, also after a reconnect). Params, clients
 * and settled come from it; the membership waits for the full frame that follows. Returns
 * {restarted, events}: restarted when the event seqs start over (a new server process),
 * events the replayed ones not shown yet (seq > lastSeq).
 */
export function applyHello(s, msg) {
  if (typeof msg.client === 'string') s.client = msg.client;
  if (Number.isFinite(msg.clients)) s.clients = msg.clients;
  if (isObject(msg.params)) s.params = { ...s.params, ...msg.params };
  if (isObject(msg.limits)) s.limits = { ...msg.limits };
  if (Number.isFinite(msg.tick)) s.tick = msg.tick;
  if (typeof msg.settled === 'boolean') s.settled = msg.settled;
  s.v = null; // the next frame carries ids; frames without them are meaningless until then
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

  return { restarted, events: takeNewEvents(s, events) };
}

/** The events not shown yet (seq > lastSeq, or no seq), remembering the highest seq. */
export function takeNewEvents(s, events) {
  const fresh = [];
  for (const ev of events) {
    if (!isObject(ev)) continue;
    if (Number.isFinite(ev.seq)) {
      if (ev.seq <= s.lastSeq) continue;
      s.lastSeq = ev.seq;
    }
    fresh.push(ev);
  }
  return fresh;
}

function trackPins(s, ev) {
  switch (ev.kind) {
    case 'pinned':
      if (isId(ev.id)) s.pinned.add(ev.id);
      break;
    case 'unpinned':
      s.pinned.delete(ev.id);
      break;
    case 'removed':
    case 'cleared':
      if (Array.isArray(ev.ids)) for (const id of ev.ids) s.pinned.delete(id);
      if (ev.kind === 'cleared') s.pinned.clear();
      break;
    default:
  }
}

/** A function id -> the client that added it (null: nobody known, a restored cell). */
export function ownerLookup(s) {
  const runs = s.owners;
  return (id) => ownerOf(runs, id);
}

/**
 * A live `event`. Returns {show, params}: show when it is new (the log shows it), params
 * when the parameters changed. Events already shown (seq <= lastSeq) change nothing.
 */
export function applyEvent(s, ev) {
  if (takeNewEvents(s, [ev]).length === 0) return { show: false, params: false };
  trackPins(s, ev);
  let params = false;
  switch (ev.kind) {
    case 'params':
      if (isObject(ev.params)) {
        s.params = { ...s.params, ...ev.params };
        params = true;
      }
      break;
    case 'settled':
      s.settled = true;
      break;
    case 'woke':
      s.settled = false;
      break;
    case 'joined':
    case 'left':
      if (Number.isFinite(ev.clients)) s.clients = ev.clients;
      break;
    default:
  }
  if (Number.isFinite(ev.tick) && ev.tick > s.tick) s.tick = ev.tick;
  return { show: true, params };
}

/** A `stats` message. */
export function applyStats(s, msg) {
  s.stats = { ...msg };
  if (Number.isFinite(msg.clients)) s.clients = msg.clients;
  if (typeof msg.settled === 'boolean') s.settled = msg.settled;
}

/**
 * A `frame`. With ids it starts membership version v; without, it must be the current v
 * (else it is ignored). Returns {applied, membership}: membership when the ids changed.
 */
export function applyFrame(s, msg) {
  const xy = msg.xy;
  if (!Array.isArray(xy)) return { applied: false, membership: false };
  if (Array.isArray(msg.ids)) {
    const ids = msg.ids;
    if (xy.length !== 2 * ids.length) return { applied: false, membership: false };
    const same = sameIds(s.ids, ids);
    if (!same) setMembership(s, ids);
    const runs = normalizeRuns(msg.owners);
    if (!sameRuns(runs, s.owners)) s.owners = runs;
    s.v = msg.v;
    s.xy = toPositions(xy, s.xy);
    if (Number.isFinite(msg.tick)) s.tick = msg.tick;
    return { applied: true, membership: !same };
  }
  if (s.v === null || msg.v !== s.v || xy.length !== 2 * s.ids.length) {
    return { applied: false, membership: false };
  }
  s.xy = toPositions(xy, s.xy);
  if (Number.isFinite(msg.tick)) s.tick = msg.tick;
  return { applied: true, membership: false };
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

function setMembership(s, ids) {
  const oldIds = s.ids;
  const oldIndex = s.index;
  s.ids = ids.slice();
  s.index = new Map();
  for (let i = 0; i < s.ids.length; i++) s.index.set(s.ids[i], i);
  for (const id of s.pinned) if (!s.index.has(id)) s.pinned.delete(id);
  s.selectedId = followSelection(s, oldIds, oldIndex);
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

/** Index of the selected cell in the membership list, -1 when none. */
export function selectedIndex(s) {
  if (s.selectedId === null) return -1;
  const i = s.index.get(s.selectedId);
  return i === undefined ? -1 : i;
}

/** Select the cell at index i (clamped); returns true when the selection changed. */
export function selectIndex(s, i) {
  if (s.ids.length === 0) return false;
  const j = Math.min(Math.max(Math.round(Number(i) || 0), 0), s.ids.length - 1);
  const id = s.ids[j];
  if (id === s.selectedId) return false;
  s.selectedId = id;
  return true;
}

/** Number of cells as the page knows it: the frame's membership, else the last stats. */
export function cellCount(s) {
  if (s.v !== null || s.ids.length > 0) return s.ids.length;
  return Number.isFinite(s.stats?.cells) ? s.stats.cells : 0;
}
