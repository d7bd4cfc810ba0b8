// Which moment of the past to ask the server for while the timeline's handle is dragged, and
// the answers made into what the canvas draws. At most one `moment` request is under way: a
// drag asks far faster than answers come, so the newest time wanted waits and goes out as
// soon as the answer comes, before this page works on it (the times in between are never
// asked). Each request says `have`, the `dataSeq` of the cells' data this page holds (or will
// hold once it took the answer under way), and that it takes a `patch`, so the server leaves
// the data out when it has not changed (an answer without it reuses the data held, the same
// object: the canvas's paint and links caches hold), or sends only the events since
// (`since`, dragged forward) or what takes it back (`patch`, dragged back), applied to the
// data held in place: the moment drawn before is replaced by this one at once. It times each
// answer (`figures`). Pure, no DOM: `send(message)` says whether it went, `now()` is a clock in ms.
import { applyDataEvent, applyDataMessage, applyDataPatch, createCellData, indexLinks } from './celldata.js';
import { normalizeRuns, sameRuns } from './owners.js';

const isNumberArray = (v, n) => Array.isArray(v) && v.length === n;

export function createScrub({ send, now = () => 0 }) {
  let wanted = null; // the newest time wanted and not asked yet
  let asked = null; // {at, ref, t}: the request under way, and when it went
  // answers: how many; meanMs, maxMs: from request to answer; buildMeanMs, buildMaxMs: this
  // page's own work on an answer (its positions, and its data when it brings some); kinds: by
  // what data the answers brought (kindOf), how many and the mean of that work
  const figures = { answers: 0, meanMs: 0, maxMs: 0, buildMeanMs: 0, buildMaxMs: 0, kinds: {} };
  let held = null; // {dataSeq, data}: the cells' data of the last moment
  let refs = 0;
  let primeRef = null; // the request of prime(), whose data waits for a drag
  let last = null; // the last moment made: its ids and index serve the next one when the same

  // `have`: the dataSeq of the data held, or of the answer about to be taken
  function ask(have = held?.dataSeq ?? null) {
    if (asked !== null || wanted === null) return;
    const at = wanted;
    const ref = `moment-${refs + 1}`;
    const msg = { type: 'moment', at, ref };
    if (have !== null) Object.assign(msg, { have, patch: true });
    if (!send(msg)) return; // not connected: still wanted, asked again by resume()
    refs++;
    wanted = null;
    asked = { at, ref, t: now() };
  }

  // the dataSeq this page holds once it took answer `msg`'s data, or undefined when it cannot
  // (the events since, or the data left out, are of data this page does not hold)
  function heldAfter(msg) {
    const dataSeq = Number.isSafeInteger(msg.dataSeq) ? msg.dataSeq : null;
    switch (kindOf(msg)) {
      case 'since': case 'patch': return held !== null && held.dataSeq === msg.base ? dataSeq : undefined;
      case 'held': return held !== null && held.dataSeq === dataSeq ? dataSeq : undefined;
      default: return dataSeq;
    }
  }

  // the cells' data of an answer: its own (a new data object), the one held, or the one held
  // changed by the events since it (`since`, from `base`) or taken back to an earlier moment
  // (`patch`, from a later `base`: a handle dragged back), in place, its version moving; null when it is of data this page does not hold (the request under way said the
  // `have` of an answer this page then could not take): that moment is asked again
  function dataOf(msg) {
    const dataSeq = heldAfter(msg);
    if (dataSeq === undefined) {
      wanted ??= Math.round(msg.at);
      return null;
    }
    const kind = kindOf(msg);
    if (kind === 'since' || kind === 'patch') {
      const { data } = held;
      if (kind === 'since') {
        for (const ev of msg.since) if (ev !== null && typeof ev === 'object') applyDataEvent(data, ev);
      } else {
        applyDataPatch(data, msg.patch);
      }
      held = dataSeq === null ? null : { dataSeq, data };
      return data;
    }
    if (kind === 'held') return held.data;
    const data = createCellData();
    applyDataMessage(data, { cells: columns(msg.cells), links: msg.links });
    held = dataSeq === null ? null : { dataSeq, data };
    return data;
  }

  return {
    /** Show the room as it was at `at` (server ms since 1970), as soon as the server can. */
    want(at) {
      if (!Number.isFinite(at)) return;
      wanted = Math.round(at);
      ask();
    },
    /**
     * The room at `at` (now, as the timeline opens), its data held for the drag to come and not
     * shown: the first moment of a drag then brings only what changed. Only when nothing is
     * held or asked.
     */
    prime(at) {
      if (held !== null || asked !== null || wanted !== null) return;
      this.want(at);
      primeRef = asked?.ref ?? null;
    },
    /** Nothing more is wanted (back to live): an answer under way is still taken, then nothing. */
    cancel() {
      wanted = null;
    },
    /**
     * A `moment` answer: the moment to draw ({at, seq, clamped, ids, index, xy, data, params,
     * pinned, owners, dataSeq}), or null when it cannot be drawn. The newest time wanted since goes out.
     */
    answer(msg) {
      const t0 = now();
      const timed = asked !== null;
      if (timed) {
        const ms = t0 - asked.t;
        figures.meanMs += (ms - figures.meanMs) / ++figures.answers;
        figures.maxMs = Math.max(figures.maxMs, ms);
      }
      asked = null;
      // the next request goes before this page works on this answer (the server rebuilds that
      // moment meanwhile), with the `have` this answer leaves
      const next = msg !== null && typeof msg === 'object' ? heldAfter(msg) : undefined;
      ask(next === undefined ? held?.dataSeq ?? null : next);
      const moment = momentOf(msg, dataOf, last);
      if (moment !== null) last = moment;
      // held for a drag to come: its links indexed now, not at its first moment's removal
      if (moment !== null && msg.ref !== undefined && msg.ref === primeRef) indexLinks(moment.data);
      if (timed) {
        const ms = now() - t0;
        figures.buildMeanMs += (ms - figures.buildMeanMs) / figures.answers;
        figures.buildMaxMs = Math.max(figures.buildMaxMs, ms);
        const kind = (figures.kinds[kindOf(msg)] ??= { answers: 0, buildMeanMs: 0 });
        kind.buildMeanMs += (ms - kind.buildMeanMs) / ++kind.answers;
      }
      ask();
      return moment;
    },
    /** An `error`: true when it refused the request under way (which is then no longer). */
    refused(msg) {
      if (asked === null || msg?.ref !== asked.ref) return false;
      asked = null;
      ask();
      return true;
    },
    /** The connection is back (or a new one): nothing is under way; what it held is of the old one. */
    resume() {
      asked = null;
      held = null;
      last = null;
      ask();
    },
    /**
     * How long answers took (ms from the request) and this page's work on them: {answers,
     * meanMs, maxMs, buildMeanMs, buildMaxMs, kinds: {whole, since, patch, held: {answers, buildMeanMs}}}.
     */
    get figures() {
      return { ...figures, kinds: structuredClone(figures.kinds) };
    },
    /** A request is under way. */
    get busy() {
      return asked !== null;
    },
    /** The time asked for last (the request under way), or null. */
    get asking() {
      return asked?.at ?? null;
    },
  };
}

// What data an answer brought: all of it (`whole`), the events since the data held (`since`),
// what takes it back (`patch`), or none (`held`: the data held is the moment's). The one
// reading of an answer's shape: what the page holds after it, its data and its figures.
function kindOf(msg) {
  if (msg === null || typeof msg !== 'object') return 'held';
  if (Array.isArray(msg.since)) return 'since';
  if (msg.patch !== undefined) return 'patch';
  return msg.cells === undefined && msg.links === undefined ? 'held' : 'whole';
}

// A moment's `cells`: the data message's columns ({id: […], label: […], …}); rows
// ([{id, label, …}]) are taken too.
function columns(cells) {
  if (!Array.isArray(cells)) return cells;
  const out = { id: [] };
  for (const row of cells) {
    if (row === null || typeof row !== 'object') continue;
    const i = out.id.length;
    for (const [k, v] of Object.entries(row)) {
      out[k] ??= [];
      out[k][i] = v;
    }
    out.id.length = i + 1;
  }
  for (const k of Object.keys(out)) out[k].length = out.id.length;
  return out;
}

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A `moment` message as the canvas draws it, or null when it is not one. When its cells are
 * those of `previous` (the moment before, as scrubbing mostly goes), it takes that one's `ids`
 * and `index`: the canvas's caches of a membership (colours, radii, links) hold.
 */
export function momentOf(msg, dataOf = () => createCellData(), previous = null) {
  if (msg === null || typeof msg !== 'object' || msg.type !== 'moment' || !Number.isFinite(msg.at)) return null;
  let ids = Array.isArray(msg.ids) ? msg.ids : [];
  const n = ids.length;
  if (!isNumberArray(msg.x ?? [], n) || !isNumberArray(msg.y ?? [], n)) return null;
  const same = previous !== null && sameIds(previous.ids, ids);
  if (same) ids = previous.ids;
  const xy = new Float64Array(2 * n);
  const index = same ? previous.index : new Map();
  for (let i = 0; i < n; i++) {
    const x = Number(msg.x[i]);
    const y = Number(msg.y[i]);
    xy[2 * i] = Number.isFinite(x) ? x : 0;
    xy[2 * i + 1] = Number.isFinite(y) ? y : 0;
    if (!same) index.set(ids[i], i);
  }
  const data = dataOf(msg);
  if (data === null) return null;
  const params = msg.params !== null && typeof msg.params === 'object' && !Array.isArray(msg.params) ? msg.params : {};
  const pinned = new Set((Array.isArray(msg.pinned) ? msg.pinned : []).filter((id) => index.has(id)));
  // who had added the cells then (runs as a frame's), null when the answer does not say; the
  // moment before's when the same (the canvas's colours of a membership hold)
  let owners = Array.isArray(msg.owners) ? normalizeRuns(msg.owners) : null;
  if (owners !== null && previous?.owners && sameRuns(owners, previous.owners)) owners = previous.owners;
  return {
    at: msg.at,
    seq: Number.isSafeInteger(msg.seq) ? msg.seq : null,
    clamped: msg.clamped === true,
    dataSeq: Number.isSafeInteger(msg.dataSeq) ? msg.dataSeq : null,
    ids,
    index,
    xy,
    data,
    params,
    pinned,
    owners,
  };
}
