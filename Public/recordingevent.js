// An event record of a recording (docs/history-format.md): the `event` message as the server
// sent it, parsed into what it did, as HistoryEventReading.swift reads it: what a playback
// needs of each kind (`detail`), or null for a record that is not an event the server wrote (a
// damaged or foreign record is skipped, as the Swift skips it). Pure.
const PREFIX = '{"type":"event","seq":';
// every kind of event the server writes (EventKind; Tests/fixtures/event-kinds.json holds them to it)
export const KINDS = new Set(['added', 'removed', 'cleared', 'params', 'pinned', 'unpinned', 'settled', 'woke', 'joined', 'left',
  'updated', 'linked', 'unlinked', 'failover', 'unsaved', 'saved', 'access', 'deleted', 'restored']);
const KEY_BYTES = 200; // CellKey.byteLimit

const number = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const integer = (v) => (Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? v : null);

function integers(v) {
  if (!Array.isArray(v)) return null;
  return v.every((id) => integer(id) !== null) ? v : null;
}

/** Attributes: a non-empty object, else none (as `Attrs.make`: an empty object is no attributes). */
export function attrsOf(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 ? v : null;
}

/** {type: 'event', seq, event: {kind, by, tick, at, detail}} of an event record's text, or null. */
export function readEvent(text) {
  if (!text.startsWith(PREFIX)) return null;
  const digits = /^[0-9]+,/.exec(text.slice(PREFIX.length));
  if (!digits) return null;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const seq = Number(digits[0].slice(0, -1));
  const tick = integer(value.tick);
  const at = integer(value.at);
  if (!(seq > 0) || !KINDS.has(value.kind) || tick === null || at === null) return null;
  const detail = detailOf(value.kind, value);
  if (detail === null) return null;
  return { type: 'event', seq, event: { kind: value.kind, by: typeof value.by === 'string' ? value.by : null, tick, at, detail } };
}

// What the event did, as far as playing it needs (LayoutEvent.Detail).
function detailOf(kind, value) {
  switch (kind) {
    case 'added': {
      const ids = integers(value.ids);
      if (ids === null) return null;
      if (value.cells === undefined) return { ids, cells: null };
      const cells = records(value.cells);
      return cells && { ids, cells };
    }
    case 'removed': case 'cleared': case 'deleted': {
      const ids = integers(value.ids);
      return ids && { ids };
    }
    case 'updated': {
      const cells = records(value.cells);
      return cells && { records: cells };
    }
    case 'linked': case 'unlinked': {
      const found = links(value.links);
      if (found === null) return null;
      return kind === 'linked' ? { links: found } : { ends: found.map(({ link }) => ({ source: link.source, target: link.target })) };
    }
    case 'params':
      if (value.params === null || typeof value.params !== 'object' || Array.isArray(value.params)) return null;
      return { parameters: { ...value.params } };
    case 'pinned': {
      const id = integer(value.id);
      const x = number(value.x);
      const y = number(value.y);
      return id === null || x === null || y === null ? null : { id, x, y };
    }
    case 'unpinned': {
      const id = integer(value.id);
      return id === null ? null : { id };
    }
    case 'failover': {
      if (typeof value.node !== 'string') return null;
      // the parameters of the state it went on from (none from a server before they were said)
      const parameters = value.params !== null && typeof value.params === 'object' && !Array.isArray(value.params) ? { ...value.params } : null;
      return { pinned: integers(value.pinned) ?? [], parameters };
    }
    case 'restored':
      // A checkpoint of the restored room follows it in its history: its cells are taken from there.
      return integer(value.moment) === null || integers(value.ids) === null ? null : {};
    case 'joined': case 'left':
      return typeof value.client !== 'string' || integer(value.clients) === null ? null : {};
    default: // access (not part of a moment), settled, woke, unsaved, saved
      return {};
  }
}

// Cells' data as events carry them: {id, data, radius} each (CellRecordData).
function records(value) {
  if (!Array.isArray(value)) return null;
  const out = [];
  for (const item of value) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
    const id = integer(item.id);
    if (id === null) return null;
    const text = (v) => (typeof v === 'string' ? v : null);
    let key = null;
    if (typeof item.key === 'string' && new TextEncoder().encode(item.key).length <= KEY_BYTES) key = item.key;
    else if (number(item.key) !== null) key = item.key;
    const record = { id, radius: number(item.radius),
      data: { label: text(item.label), color: text(item.color), group: text(item.group), key, attrs: attrsOf(item.attrs) } };
    // where an `update` moved the cell (its `updated` event only)
    if (number(item.x) !== null && number(item.y) !== null) record.place = { x: item.x, y: item.y };
    out.push(record);
  }
  return out;
}

// Links as events carry them: {link: {source, target, distance, strength}, attrs} each (LinkRecord).
function links(value) {
  if (!Array.isArray(value)) return null;
  const out = [];
  for (const item of value) {
    const source = integer(item?.source);
    const target = integer(item?.target);
    if (source === null || target === null) return null;
    out.push({ link: { source, target, distance: number(item.distance), strength: number(item.strength) }, attrs: attrsOf(item.attrs) });
  }
  return out;
}
