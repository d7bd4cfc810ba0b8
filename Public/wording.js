// Events of docs/protocol.md in words, for the activity log. Pure, no DOM.
import { formatParam } from './params.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
// how many cells (links) an event names: its array, or `n` where the server's history answer
// gives the length in place of a bulky array (docs/protocol.md, `history`)
const count = (list, n) => (Array.isArray(list) ? list.length : Number.isSafeInteger(n) && n >= 0 ? n : 0);
// "cell 12", or "a cell" when the event's id is not a cell id (never "cell undefined")
const cellName = (id) => (Number.isSafeInteger(id) && id > 0 ? `cell ${id}` : 'a cell');

function paramChange(name, value) {
  if (name === 'paused' && typeof value === 'boolean') return value ? 'paused the layout' : 'resumed the layout';
  return `set ${name} to ${formatParam(name, value)}`;
}

/**
 * One line for an `event` message, e.g. "c3 added 10 cells", "c2 set charge to 20",
 * "layout settled", "c4 joined (3 clients)"; an undo's events say so ("c3 undid: removed 10
 * cells"). Unknown kinds get a plain line; anything that is not an event object gives null.
 */
export function describeEvent(ev) {
  const line = describeChange(ev);
  if (line === null || !Number.isSafeInteger(ev.undo)) return line;
  const who = typeof ev.by === 'string' && ev.by ? ev.by : 'server';
  return line.startsWith(`${who} `) ? `${who} undid: ${line.slice(who.length + 1)}` : `undid: ${line}`;
}

function describeChange(ev) {
  if (!ev || typeof ev !== 'object' || typeof ev.kind !== 'string') return null;
  const who = typeof ev.by === 'string' && ev.by ? ev.by : 'server';
  switch (ev.kind) {
    case 'added':
      return `${who} added ${plural(count(ev.ids, ev.n), 'cell')}`;
    case 'removed':
      return `${who} removed ${plural(count(ev.ids, ev.n), 'cell')}`;
    case 'cleared':
      return `${who} cleared ${plural(count(ev.ids, ev.n), 'cell')}`;
    case 'params': {
      const params = ev.params && typeof ev.params === 'object' ? ev.params : {};
      const names = (Array.isArray(ev.changed) ? ev.changed : []).filter((n) => typeof n === 'string');
      if (names.length === 0) return `${who} set the parameters`;
      // a history answer names what changed without the values: "c2 changed charge"
      return `${who} ${names.map((n) => (n in params ? paramChange(n, params[n]) : `changed ${n}`)).join(', ')}`;
    }
    case 'updated':
      return `${who} updated ${plural(count(ev.cells, ev.n), 'cell')}`;
    case 'linked':
      return `${who} linked ${plural(count(ev.links, ev.n), 'pair')}`;
    case 'unlinked':
      return `${who} unlinked ${plural(count(ev.links, ev.n), 'pair')}`;
    case 'pinned':
      return `${who} pinned ${cellName(ev.id)}`;
    case 'unpinned':
      return `${who} unpinned ${cellName(ev.id)}`;
    case 'settled':
      return 'layout settled';
    case 'woke':
      return 'layout woke';
    case 'unsaved':
      return 'the server cannot save this room (changes since are not saved; it keeps trying)';
    case 'saved':
      return 'the room is saved again';
    case 'restored':
      return Number.isFinite(ev.moment) ? `${who} restored the room as it was at ${clockTime(new Date(ev.moment))}` : `${who} restored the room`;
    case 'failover': {
      const node = typeof ev.node === 'string' ? ev.node : 'another server';
      const gone = typeof ev.previous === 'string' ? ` (${ev.previous} stopped)` : '';
      return `room moved to server ${node}${gone}`;
    }
    case 'joined':
    case 'left': {
      const client = typeof ev.client === 'string' ? ev.client : who;
      const n = Number.isFinite(ev.clients) ? ` (${plural(ev.clients, 'client')})` : '';
      return `${client} ${ev.kind}${n}`;
    }
    default:
      return ev.by ? `${who}: ${ev.kind}` : ev.kind;
  }
}

/**
 * Lines with the same key in quick succession are merged in the log (a drag sends a pin
 * per step; a slider sends a value per step): the same actor pinning the same cell, or
 * setting the same parameters, and otherwise the same sentence.
 */
export function eventKey(ev) {
  if (!ev || typeof ev !== 'object') return null;
  const who = typeof ev.by === 'string' ? ev.by : '';
  if (ev.kind === 'params') {
    const params = ev.params && typeof ev.params === 'object' ? ev.params : {};
    const names = Array.isArray(ev.changed) ? ev.changed : [];
    // a slider's run of values merges; a toggle (paused, collide) or a menu's choice (model)
    // stays one line per state
    if (names.some((n) => typeof params[n] === 'boolean' || typeof params[n] === 'string')) return describeEvent(ev);
    return `params ${who} ${names.join(',')}`;
  }
  if (ev.kind === 'pinned') return `pinned ${who} ${ev.id}`;
  return describeEvent(ev);
}

/** "bad_request: charge must be …" for an `error` message. */
export function describeError(msg) {
  const text = typeof msg?.message === 'string' && msg.message ? msg.message : 'request rejected';
  return typeof msg?.code === 'string' && msg.code ? `${msg.code}: ${text}` : text;
}

/** "13:04:05" for a Date. */
export function clockTime(date) {
  const p = (n) => String(n).padStart(2, '0');
  return `${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/**
 * The line over the timeline while it shows the past: "Viewing 14:03:12 — c3 cleared 120
 * cells" (the last change at or before that moment, with its own time when it is older), ", the
 * oldest moment kept" when the server moved the time to the start of what it keeps.
 */
export function describeMoment(at, change = null, { clamped = false } = {}) {
  let line = `Viewing ${clockTime(new Date(at))}`;
  if (clamped) line += ', the oldest moment kept';
  const what = change ? describeEvent(change) : null;
  if (!what) return line;
  const when = Math.floor(change.at / 1000) === Math.floor(at / 1000) ? '' : ` at ${clockTime(new Date(change.at))}`;
  return `${line} \u2014 ${what}${when}`;
}
