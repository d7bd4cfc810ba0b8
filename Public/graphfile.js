// A graph file read for import, as `forcelayout import` reads it (Sources/ImportTool/Reading):
// node-link JSON (d3's examples, networkx's node_link_data: {"nodes":[{"id":…}],"links":
// [{"source":…,"target":…}]}, "edges" for networkx 3.4) or a CSV/TSV edge list (two columns
// a line, optional header such as source,target). What a room cannot hold is fixed or left
// out and said in `notes`. A node keeps its id as its cell's `key` (a string or a number, as
// written) and its members not drawn as `attrs`; a link its other members (an edge list's
// further columns) as `attrs` (their size is checked against the server's maxAttrBytes by
// importer.js). Pure, no DOM.
import { recordsOf } from './delimited.js';

export { fieldsOf } from './delimited.js';

const LABEL_MAX = 80;
const GROUP_MAX = 40;
const KEY_MAX_BYTES = 200;
const ATTRS_DEPTH = 8;
const utf8 = new TextEncoder();
const HEADER = new Set(['source', 'target', 'from', 'to', 'node1', 'node2', 'id1', 'id2', 'u', 'v']);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** {nodes: [{key, cell}], edges: [{source, target, distance?, strength?, attrs?}] (by node position), notes: [string]}. */
export function readGraph(text) {
  const reader = createReader();
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) readNodeLink(reader, start);
  else readEdgeList(reader, start);
  return reader.finished();
}

function createReader() {
  const nodes = [];
  const edges = [];
  const index = new Map();
  const linked = new Set();
  const problems = new Map();
  const r = {
    note(problem) {
      problems.set(problem, (problems.get(problem) || 0) + 1);
    },
    fitted(text, limit, what) {
      let out = text;
      if (CONTROL.test(out)) {
        r.note(`${what}(s) with control characters (made spaces)`);
        out = out.replace(CONTROLS, ' ');
      }
      const points = Array.from(out);
      if (points.length > limit) {
        r.note(`${what}(s) cut to ${limit} characters`);
        out = points.slice(0, limit).join('');
      }
      return out;
    },
    known: (key) => index.get(key),
    node(key, cell = null) {
      if (index.has(key)) return index.get(key);
      const c = cell || (utf8.encode(key).length <= KEY_MAX_BYTES ? { key } : {});
      if (c.label === undefined) c.label = r.fitted(key, LABEL_MAX, 'label');
      index.set(key, nodes.length);
      nodes.push({ key, cell: c });
      return nodes.length - 1;
    },
    edge(source, target, extra = {}) {
      if (source === target) return r.note('self link(s) left out (a cell cannot link to itself)');
      const k = source < target ? `${source} ${target}` : `${target} ${source}`;
      if (linked.has(k)) return r.note('repeated link(s) left out (two cells link once)');
      linked.add(k);
      edges.push({ source, target, ...extra });
    },
    // `members` (an object) as attributes: undefined when empty or when they cannot be (noted).
    attrs(members, what) {
      if (Object.keys(members).length === 0) return undefined;
      const why = attrsProblem(members, 1);
      if (why) return r.note(`${what} attribute set(s) left out: they ${why}`);
      return members;
    },
    finished: () => {
      weightsAsStrengths(edges);
      return { nodes, edges, notes: [...problems].map(([p, n]) => `${n} ${p}`) };
    },
  };
  return r;
}

/**
 * A link's `weight` attribute (as networkx and Gephi write it) is its strength, over the
 * heaviest link's (the wire's strength is 0…1; the graph model reads strengths against their
 * mean). A link with a strength of its own keeps it. Only when every weight given is a finite
 * number at least 0 and one is above 0 (GraphFile.swift's weightsAsStrengths does the same).
 */
export function weightsAsStrengths(edges) {
  const weights = new Map();
  for (const [k, edge] of edges.entries()) {
    if (edge.strength !== undefined || !edge.attrs || !Object.hasOwn(edge.attrs, 'weight')) continue;
    const w = edge.attrs.weight;
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) return;
    weights.set(k, w);
  }
  const heaviest = Math.max(0, ...weights.values());
  if (!(heaviest > 0)) return;
  for (const [k, w] of weights) edges[k].strength = w / heaviest;
}

function attrsProblem(v, depth) {
  if (typeof v === 'number') return Number.isFinite(v) ? null : 'must hold finite numbers only';
  if (v === null || typeof v !== 'object') return null;
  if (depth > ATTRS_DEPTH) return `must be nested at most ${ATTRS_DEPTH} deep`;
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    const why = attrsProblem(x, depth + 1);
    if (why) return why;
  }
  return null;
}

// A node's id as a cell key: a string of at most KEY_MAX_BYTES bytes, or a finite number.
function cellKey(r, id) {
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  if (typeof id === 'string' && utf8.encode(id).length <= KEY_MAX_BYTES) return id;
  r.note(`id(s) not kept (exported as cell ids): an id must be ${typeof id === 'string' ? `at most ${KEY_MAX_BYTES} bytes of UTF-8` : 'a string or a finite number'}`);
  return undefined;
}

// The members of `item` not in `drawn`.
function rest(item, drawn) {
  const out = {};
  for (const [k, v] of Object.entries(item)) if (!drawn.has(k)) out[k] = v;
  return out;
}

const keyOf = (v) => (typeof v === 'string' ? v : Number.isFinite(v) ? String(v) : null);

function numberIn(r, v, lo, hi, what) {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && v >= lo && v <= hi) return v;
  r.note(`${what}(s) left out: not a number in [${lo}, ${hi}]`);
  return undefined;
}

function readNodeLink(r, text) {
  let root;
  try {
    root = JSON.parse(text);
  } catch (e) {
    throw new Error(`not valid JSON: ${e.message}`);
  }
  if (!root || !Array.isArray(root.nodes)) throw new Error('node-link JSON needs a "nodes" array');
  root.nodes.forEach((n, position) => {
    const key = n && n.id !== undefined ? keyOf(n.id) : String(position);
    if (key === null) return r.note('node(s) left out: an id must be a string or a number');
    if (r.known(key) !== undefined) return r.note("node(s) left out: their id repeats an earlier node's");
    r.node(key, cellOf(r, n || {}));
  });
  const links = root.links ?? root.edges ?? [];
  if (!Array.isArray(links)) throw new Error('"links" must be an array');
  const count = root.nodes.length;
  for (const l of links) {
    const a = endOf(r, l?.source, count);
    const b = endOf(r, l?.target, count);
    if (a === undefined || b === undefined) {
      r.note('link(s) left out: an end names no node');
      continue;
    }
    const extra = {};
    const drawn = new Set(['source', 'target']);
    const distance = numberIn(r, l.distance, 0, 1e6, 'distance');
    const strength = numberIn(r, l.strength, 0, 1, 'strength');
    if (distance !== undefined) { extra.distance = distance; drawn.add('distance'); }
    if (strength !== undefined) { extra.strength = strength; drawn.add('strength'); }
    const attrs = r.attrs(rest(l, drawn), 'link');
    if (attrs !== undefined) extra.attrs = attrs;
    r.edge(a, b, extra);
  }
}

// What the Swift reader does (GraphReader+NodeLink): the drawn members become the cell's
// fields; `id` its key; every other member (`name` too) its attrs.
function cellOf(r, n) {
  const cell = {};
  const drawn = new Set(['id']);
  const label = typeof n.label === 'string' ? n.label : typeof n.name === 'string' ? n.name : keyOf(n.id);
  if (typeof n.label === 'string') drawn.add('label');
  if (label !== null && label !== undefined) cell.label = r.fitted(label, LABEL_MAX, 'label');
  const group = keyOf(n.group);
  if (group !== null) { cell.group = r.fitted(group, GROUP_MAX, 'group'); drawn.add('group'); }
  if (n.color !== undefined) {
    if (typeof n.color === 'string' && /^#[0-9a-f]{6}$/i.test(n.color)) { cell.color = n.color.toLowerCase(); drawn.add('color'); }
    else r.note('colour(s) kept as attributes only: not "#rrggbb"');
  }
  const radiusName = n.radius !== undefined ? 'radius' : 'r';
  const radius = numberIn(r, n[radiusName], 1, 200, 'radius');
  if (radius !== undefined) { cell.radius = radius; drawn.add(radiusName); }
  if (Number.isFinite(n.x) && Number.isFinite(n.y) && Math.abs(n.x) <= 1e9 && Math.abs(n.y) <= 1e9) {
    cell.x = n.x;
    cell.y = n.y;
    drawn.add('x');
    drawn.add('y');
  }
  if (n.id !== undefined) {
    const key = cellKey(r, n.id);
    if (key !== undefined) cell.key = key;
  }
  const attrs = r.attrs(rest(n, drawn), 'node');
  if (attrs !== undefined) cell.attrs = attrs;
  return cell;
}

// A link's end: a node's id, or (d3 v3's examples) its position in `nodes`.
function endOf(r, v, count) {
  const key = keyOf(v);
  if (key === null) return undefined;
  const known = r.known(key);
  if (known !== undefined) return known;
  if (Number.isInteger(v) && v >= 0 && v < count) return v;
  return undefined;
}

// A line's fields after the first two as attributes named by the header (without one, a
// third column is `weight`; any after it is left out): a JSON number as a number, else a string.
function columnsOf(r, f, names) {
  const out = {};
  for (let i = 2; i < f.length; i++) {
    if (f[i] === '') continue;
    let name;
    if (i < names.length) name = names[i];
    else if (names.length === 0 && i === 2) name = 'weight';
    else { r.note('column(s) left out: no name in the header'); continue; }
    if (Object.hasOwn(out, name)) continue;
    out[name] = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(f[i]) && Number.isFinite(Number(f[i])) ? Number(f[i]) : f[i];
  }
  return r.attrs(out, 'link');
}

function readEdgeList(r, text) {
  let first = true;
  let names = [];
  for (const f of recordsOf(text)) {
    if (f[0].startsWith('#')) continue;
    const header = first && f.length >= 2 && HEADER.has(f[0].toLowerCase()) && HEADER.has(f[1].toLowerCase());
    first = false;
    if (header) {
      names = f.map((name, i) => name || `column${i + 1}`);
      continue;
    }
    if (f.length < 2 || !f[0] || !f[1]) {
      r.note('line(s) left out: fewer than two columns');
      continue;
    }
    const a = r.node(f[0]);
    const b = r.node(f[1]);
    const attrs = columnsOf(r, f, names);
    r.edge(a, b, attrs === undefined ? {} : { attrs });
  }
  if (r.finished().nodes.length === 0) throw new Error('no links found: expected node-link JSON or an edge list (two columns a line)');
}
