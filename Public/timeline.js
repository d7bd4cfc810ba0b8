// The room's past as the timeline shows it: the events the server's `history` answers bring
// (oldest first, batch by batch further back) merged with the live events this page hears,
// by seq, each kept small (a bulky array as its length `n`, as `history` gives it); the
// changes among them are the timeline's marks (who, what), and `settled`/`woke` events bound
// its settled spans. Times are the server's (ms since 1970): `offset` is how far its clock
// runs ahead of this page's, from the last answer. Also the track's geometry (a time to an x
// and back, the marks per pixel column) and the steps between changes the keys take. Pure, no DOM.

// events that change nothing one could restore or undo: not marks
const QUIET = new Set(['settled', 'woke', 'joined', 'left', 'saved', 'unsaved']);
const BULKY = ['ids', 'cells', 'links', 'pinned'];
const DROPPED = ['type', 'data']; // a restore's data: not for the timeline
const MAX_EVENTS = 200000; // a busy hour of drags; the oldest go first past it

/** A timeline that knows nothing yet. */
export function createTimeline({ max = MAX_EVENTS } = {}) {
  return {
    events: [], // compact events, by seq
    from: null, // the oldest moment one can go back to (the server's `from`), null: not asked yet
    offset: 0, // server clock minus this page's (ms)
    more: null, // older events than `events[0]` exist on the server (null: unknown, none asked)
    asked: false, // a history request is under way
    version: 0, // bumped by every change (the drawing's cache key)
    max,
  };
}

/** Whether an event is a change (a mark), not a `settled`, `joined`… */
export const isChange = (ev) => !QUIET.has(ev.kind);

const isSeq = (v) => Number.isSafeInteger(v) && v >= 0;

/** An event as the timeline keeps it: its small members, a bulky array as its length `n`. */
export function compactEvent(ev) {
  const out = {};
  for (const [k, v] of Object.entries(ev)) {
    if (DROPPED.includes(k)) continue;
    if (k === 'params' && v !== null && typeof v === 'object') {
      // of the whole set, the values that changed (what the line says)
      const changed = Array.isArray(ev.changed) ? ev.changed.filter((n) => typeof n === 'string' && n in v) : [];
      out.params = Object.fromEntries(changed.map((n) => [n, v[n]]));
      continue;
    }
    if (BULKY.includes(k) && Array.isArray(v)) out.n ??= v.length;
    else out[k] = v;
  }
  return out;
}

// merges b (sorted by seq, unique) into a (the same): one list, sorted, unique
function merge(a, b) {
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i].seq < b[j].seq)) out.push(a[i++]);
    else if (i >= a.length || b[j].seq < a[i].seq) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  return out;
}

function usable(ev) {
  return ev !== null && typeof ev === 'object' && isSeq(ev.seq) && Number.isFinite(ev.at) && typeof ev.kind === 'string';
}

function trim(t) {
  if (t.events.length <= t.max) return;
  t.events = t.events.slice(t.events.length - t.max);
  t.more = true;
}

/** Live events (as the state hears them); returns whether the timeline changed. */
export function addEvents(t, events) {
  const fresh = events.filter(usable).map(compactEvent).sort((a, b) => a.seq - b.seq);
  if (fresh.length === 0) return false;
  const last = t.events[t.events.length - 1];
  if (!last || fresh[0].seq > last.seq) {
    // the usual case: newer than everything known
    let prev = -1;
    for (const ev of fresh) {
      if (ev.seq === prev) continue;
      t.events.push(ev);
      prev = ev.seq;
    }
  } else {
    t.events = merge(t.events, fresh.filter((ev, i) => i === 0 || ev.seq !== fresh[i - 1].seq));
  }
  trim(t);
  t.version++;
  return true;
}

/**
 * A `history` answer ({from, to, events, more}) heard at this page's time `localNow`.
 * Returns whether it was one (anything else changes nothing).
 */
export function applyHistory(t, msg, localNow) {
  if (msg === null || typeof msg !== 'object' || msg.type !== 'history' || !Array.isArray(msg.events)) return false;
  t.asked = false;
  if (Number.isFinite(msg.to)) t.offset = msg.to - localNow;
  if (Number.isFinite(msg.from)) t.from = msg.from;
  const events = msg.events.filter(usable).map(compactEvent);
  // an answer reaching back past what is known says whether there is more; one of the newest
  // events (asked afresh) says nothing of what lies before the known ones
  const reachesBack = t.events.length === 0 || (events.length > 0 && events[0].seq <= t.events[0].seq);
  if (events.length > 0) t.events = merge(t.events, events.sort((a, b) => a.seq - b.seq));
  if (reachesBack || t.more === null) t.more = msg.more === true;
  trim(t);
  t.version++;
  return true;
}

/**
 * The seqs started over (a new server process): what was known is of another room's life. A
 * request under way is the new server's (it was sent on the new connection).
 */
export function resetTimeline(t) {
  t.events = [];
  t.from = null;
  t.more = null;
  t.version++;
}

/**
 * The `history` request to send next, or null: the newest events first (also to learn `from`
 * again), then older batches while the server has more. Marks it asked (one at a time).
 */
export function historyRequest(t, { fresh = false } = {}) {
  if (t.asked) return null;
  let msg = null;
  if (fresh || t.from === null) msg = { type: 'history' };
  else if (t.more === true && t.events.length > 0) msg = { type: 'history', before: t.events[0].seq };
  if (msg) t.asked = true;
  return msg;
}

/** The server's time now, from this page's (ms since 1970). */
export const serverNow = (t, localNow) => localNow + t.offset;

/** The span the track covers: [oldest moment known, now] (server times). */
export function span(t, now) {
  let start = t.from ?? now;
  if (t.events.length > 0) start = Math.min(start, t.events[0].at);
  return { start: Math.min(start, now - 1000), end: now };
}

/** The index of the last event at or before time `at` (-1: none). */
export function indexAt(events, at) {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].at <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The changes around time `at`: up to `before` of them at or before it (newest last) and up to
 * `after` after it.
 */
export function changesAround(t, at, { before = 3, after = 2 } = {}) {
  const { events } = t;
  const i = indexAt(events, at);
  const past = [];
  for (let j = i; j >= 0 && past.length < before; j--) if (isChange(events[j])) past.unshift(events[j]);
  const next = [];
  for (let j = i + 1; j < events.length && next.length < after; j++) if (isChange(events[j])) next.push(events[j]);
  return { before: past, after: next };
}

/**
 * Where a key steps from time `at`: the time of the previous change (dir -1, strictly before
 * `at`) or of the next one (dir 1, strictly after); null when there is none.
 */
export function stepChange(t, at, dir) {
  const { events } = t;
  if (dir < 0) {
    for (let j = indexAt(events, at - 1); j >= 0; j--) if (isChange(events[j]) && events[j].at < at) return events[j].at;
    return null;
  }
  for (let j = indexAt(events, at) + 1; j < events.length; j++) if (isChange(events[j])) return events[j].at;
  return null;
}

/**
 * The settled spans of [start, end]: from each `settled` to the `woke` after it (or `end`,
 * while the room rests). Before the first of them: settled when the first is a `woke`.
 */
export function settledSpans(t, { start, end }) {
  const spans = [];
  let since = null;
  let first = true;
  for (const ev of t.events) {
    if (ev.kind === 'settled') {
      if (since === null) since = ev.at;
      first = false;
    } else if (ev.kind === 'woke') {
      if (first) since = start;
      if (since !== null && ev.at > since) spans.push({ start: Math.max(since, start), end: Math.min(ev.at, end) });
      since = null;
      first = false;
    }
  }
  if (since !== null && since < end) spans.push({ start: Math.max(since, start), end });
  return spans.filter((s) => s.end > s.start);
}

/** The x (0…width) of time `at` on a track of [start, end]. */
export function xOf(at, { start, end }, width) {
  if (!(end > start)) return width;
  return Math.min(width, Math.max(0, ((at - start) / (end - start)) * width));
}

/** The time at x (0…width) on a track of [start, end]. */
export function atOf(x, { start, end }, width) {
  if (!(width > 0)) return end;
  return start + (Math.min(width, Math.max(0, x)) / width) * (end - start);
}

// what a mark says at a glance (its colour), the strongest first when marks share a column
export const MARK_CLASSES = ['restore', 'undo', 'remove', 'add', 'data', 'params', 'pin'];
const CLASS_OF = {
  restored: 'restore', failover: 'restore', removed: 'remove', cleared: 'remove', unlinked: 'remove',
  added: 'add', linked: 'add', updated: 'data', params: 'params', pinned: 'pin', unpinned: 'pin',
};

/** A change's class (MARK_CLASSES), 'data' for a kind not known here. */
export function markClass(ev) {
  if (Number.isSafeInteger(ev.undo)) return 'undo';
  return CLASS_OF[ev.kind] ?? 'data';
}

/**
 * The marks of a track `width` px wide over [start, end]: per whole-pixel column, the index in
 * MARK_CLASSES of the strongest change in it (255: none). One pass over the events.
 */
export function markColumns(t, range, width) {
  const n = Math.max(0, Math.floor(width));
  const cols = new Uint8Array(n).fill(255);
  if (n === 0) return cols;
  for (const ev of t.events) {
    if (!isChange(ev) || ev.at < range.start || ev.at > range.end) continue;
    const c = Math.min(n - 1, Math.floor(xOf(ev.at, range, n)));
    const k = MARK_CLASSES.indexOf(markClass(ev));
    if (k < cols[c]) cols[c] = k;
  }
  return cols;
}

/** The change drawn nearest to x (within `reach` px), or null: what a mark under the pointer is. */
export function changeNear(t, x, range, width, reach = 4) {
  const at = atOf(x, range, width);
  const perPx = (range.end - range.start) / Math.max(1, width);
  const i = indexAt(t.events, at);
  let best = null;
  let bestD = reach * perPx;
  for (const j of [i, i + 1]) {
    // look each way for the nearest change
    const dir = j === i ? -1 : 1;
    for (let k = j; k >= 0 && k < t.events.length; k += dir) {
      const d = Math.abs(t.events[k].at - at);
      if (d > bestD) break;
      if (isChange(t.events[k])) {
        best = t.events[k];
        bestD = d;
        break;
      }
    }
  }
  return best;
}
