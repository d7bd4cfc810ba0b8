// The cells' data and the links, as the server tells them: the `data` message a page gets
// after hello (columns: cells.id, cells.label, …; links.source, links.target, …) replaces
// everything; then the events `added` (its `cells`), `updated`, `linked`, `unlinked`,
// `removed` and `cleared` change it, and `restored` (its `data`) replaces it. Pure, no DOM.
//
// `cells`: Map id -> {label, radius, color, group, key} (only the fields a cell has; `key` is
// the cell's id in the user's data, a string or a number, which an import resumes by);
// `links`: Map linkKey(a, b) -> {source, target}; `near`: Map id -> Set of its links' keys, made
// once PASSES removals went over every link and kept from then on, so a `removed` costs its
// cells' links, not a pass over every link (null until then; `passes` counts them). Each
// change returns whether it changed anything, so the state emits `data` only then.
const FIELDS = ['label', 'radius', 'color', 'group', 'key'];
// A pass over 20k links takes about a seventh of indexing them: data a scrub replaces after a
// few removals (a moment across a re-import) never pays for the index; data kept for many
// removals pays for it once.
const PASSES = 4;
const isId = (v) => Number.isSafeInteger(v) && v > 0;

export function createCellData() {
  return { cells: new Map(), links: new Map(), version: 0, near: null, passes: 0 };
}

// Ids below this (the server counts them from 1: tens of millions of cells added to one room)
// make a link's key one number, low * WIDE + high, exact below 2^52; the rare pair past it a
// string, "low-high". A number is hashed and compared far faster than a string is made: a
// moment's 20k links are keyed in a quarter of the time (node, 20k links: 4-9 ms as strings,
// 1.6 ms as numbers; the page's whole answers across a re-import 34 -> 13 ms, bench/scrub.py).
const WIDE = 2 ** 26;

/** A link's key among `links`, whichever end is named first: opaque, equal for equal ends. */
export function linkKey(a, b) {
  const low = a < b ? a : b;
  const high = a < b ? b : a;
  return high < WIDE ? low * WIDE + high : `${low}-${high}`;
}

// A cell record's fields, checked: strings for label, color and group, a number for radius,
// either for key.
const valid = {
  radius: (v) => Number.isFinite(v),
  key: (v) => typeof v === 'string' || Number.isFinite(v),
};
const isString = (v) => typeof v === 'string';

function fieldsOf(record) {
  const out = {};
  for (const f of FIELDS) {
    const v = record[f];
    if ((valid[f] ?? isString)(v)) out[f] = v;
  }
  return out;
}

function setCell(d, id, fields) {
  if (Object.keys(fields).length === 0) d.cells.delete(id);
  else d.cells.set(id, fields);
}

/** A `data` message: everything, replaced. */
export function applyDataMessage(d, msg) {
  d.cells = new Map();
  d.links = new Map();
  d.near = null;
  d.passes = 0;
  setColumns(d, msg?.cells, msg?.links);
  d.version++;
  return true;
}

/**
 * A moment's `patch` (docs/protocol.md, "History"): what takes the data of a later moment
 * back to an earlier one's. Its `gone` cells go with their links, its `cells` are set whole,
 * its `unlinked` links go and its `links` are set. Returns true when anything changed.
 */
export function applyDataPatch(d, patch) {
  if (patch === null || typeof patch !== 'object') return false;
  let changed = forget(d, Array.isArray(patch.gone) ? patch.gone : []);
  const u = patch.unlinked;
  if (u && Array.isArray(u.source) && Array.isArray(u.target)) {
    for (let i = 0; i < u.source.length; i++) changed = deleteLink(d, linkKey(u.source[i], u.target[i])) || changed;
  }
  changed = setColumns(d, patch.cells, patch.links) || changed;
  if (changed) d.version++;
  return changed;
}

// Cells (a cell without a field is taken out of the map) and links in the `data` message's
// columns; whether any was given.
function setColumns(d, c, l) {
  let any = false;
  if (c && Array.isArray(c.id)) {
    // the columns it has, each with its check, looked up once
    const columns = FIELDS.filter((f) => Array.isArray(c[f])).map((f) => [f, c[f], valid[f] ?? isString]);
    for (let i = 0; i < c.id.length; i++) {
      const id = c.id[i];
      if (!isId(id)) continue;
      let record = null;
      for (const [f, column, ok] of columns) {
        const v = column[i];
        if (!ok(v)) continue;
        record ??= {};
        record[f] = v;
      }
      if (record === null) d.cells.delete(id);
      else d.cells.set(id, record);
      any = true;
    }
  }
  if (l && Array.isArray(l.source) && Array.isArray(l.target)) {
    for (let i = 0; i < l.source.length; i++) any = addLink(d, l.source[i], l.target[i]) || any;
  }
  return any;
}

function addLink(d, a, b) {
  if (!isId(a) || !isId(b) || a === b) return false;
  const key = linkKey(a, b);
  d.links.set(key, { source: a, target: b });
  if (d.near) {
    nearOf(d.near, a).add(key);
    nearOf(d.near, b).add(key);
  }
  return true;
}

function deleteLink(d, key) {
  const l = d.links.get(key);
  if (l === undefined) return false;
  d.links.delete(key);
  if (d.near) {
    d.near.get(l.source)?.delete(key);
    d.near.get(l.target)?.delete(key);
  }
  return true;
}

function nearOf(near, id) {
  let keys = near.get(id);
  if (keys === undefined) {
    keys = new Set();
    near.set(id, keys);
  }
  return keys;
}

/** Each cell's links indexed now (`near`) rather than at the first removal: for data held
 * ahead of the changes to come (scrub.js's prime). */
export function indexLinks(d) {
  linksByCell(d);
}

// each cell's links (d.near), made once from the links
function linksByCell(d) {
  if (!d.near) {
    d.near = new Map();
    for (const [key, l] of d.links) {
      nearOf(d.near, l.source).add(key);
      nearOf(d.near, l.target).add(key);
    }
  }
  return d.near;
}

/** An event; returns true when the data or the links changed. */
export function applyDataEvent(d, ev) {
  let changed = false;
  switch (ev.kind) {
    case 'added':
    case 'updated':
      if (Array.isArray(ev.cells)) {
        for (const record of ev.cells) {
          if (!record || !isId(record.id)) continue;
          setCell(d, record.id, fieldsOf(record));
          changed = true;
        }
      }
      break;
    case 'linked':
      if (Array.isArray(ev.links)) for (const l of ev.links) changed = addLink(d, l?.source, l?.target) || changed;
      break;
    case 'unlinked':
      if (Array.isArray(ev.links)) for (const l of ev.links) changed = deleteLink(d, linkKey(l?.source, l?.target)) || changed;
      break;
    case 'removed':
    case 'cleared':
      changed = forget(d, Array.isArray(ev.ids) ? ev.ids : []);
      break;
    case 'restored':
      // the room is a moment of its past again: its data, as a data message has it
      if (ev.data !== null && typeof ev.data === 'object') {
        applyDataMessage(d, ev.data);
        return true;
      }
      break;
    default:
  }
  if (changed) d.version++;
  return changed;
}

// Removed cells lose their data and their links.
function forget(d, ids) {
  if (ids.length === 0 || (d.cells.size === 0 && d.links.size === 0)) return false;
  let changed = false;
  const clear = ids.length >= d.cells.size && ids.length >= d.links.size;
  if (clear || (d.near === null && (d.passes ?? 0) < PASSES)) {
    // as many cells gone as there is data (a clear), or links not indexed yet: one pass over it
    if (!clear) d.passes = (d.passes ?? 0) + 1;
    const gone = new Set(ids);
    for (const id of gone) {
      changed = d.cells.delete(id) || changed;
      d.near?.delete(id);
    }
    for (const [key, l] of d.links) if (gone.has(l.source) || gone.has(l.target)) changed = deleteLink(d, key) || changed;
    return changed;
  }
  const near = linksByCell(d);
  for (const id of ids) {
    changed = d.cells.delete(id) || changed;
    const keys = near.get(id);
    if (keys === undefined) continue;
    near.delete(id);
    for (const key of keys) changed = deleteLink(d, key) || changed;
  }
  return changed;
}

/** "Valjean" for a cell with a label, else "Cell 12". */
export function cellName(d, id) {
  const label = d.cells.get(id)?.label;
  return label ? label : `Cell ${id}`;
}
