import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDataEvent, applyDataMessage, applyDataPatch, cellName, createCellData, linkKey } from '../../Public/celldata.js';
import { readGraph, fieldsOf } from '../../Public/graphfile.js';
import { createImporter } from '../../Public/importer.js';
import { serverSize } from '../../Public/importbatch.js';
import { createLinkIndex, drawLinks } from '../../Public/linkdraw.js';
import { createRadiusGroups } from '../../Public/radiusgroups.js';

test('the data message replaces everything, events change it, removal takes data and links', () => {
  const d = createCellData();
  applyDataEvent(d, { kind: 'added', ids: [9], cells: [{ id: 9, label: 'old' }] });
  applyDataMessage(d, { type: 'data', cells: { id: [1, 2, 3], label: ['Valjean', null, 'Javert'], radius: [null, 12, null] },
    links: { source: [1, 2], target: [2, 3], distance: [30, 30] } });
  assert.deepEqual([...d.cells], [[1, { label: 'Valjean' }], [2, { radius: 12 }], [3, { label: 'Javert' }]]);
  assert.equal(d.links.size, 2);
  assert.equal(cellName(d, 1), 'Valjean');
  assert.equal(cellName(d, 2), 'Cell 2');
  assert.ok(applyDataEvent(d, { kind: 'updated', cells: [{ id: 2, label: 'Fantine' }] }));
  assert.deepEqual(d.cells.get(2), { label: 'Fantine' }); // whole: the radius went back to the default
  assert.ok(applyDataEvent(d, { kind: 'unlinked', links: [{ source: 2, target: 1 }] }));
  assert.ok(applyDataEvent(d, { kind: 'linked', links: [{ source: 3, target: 1, distance: 30 }] }));
  assert.ok(applyDataEvent(d, { kind: 'removed', ids: [3] }));
  assert.equal(d.links.size, 0);
  assert.equal(d.cells.has(3), false);
  assert.equal(applyDataEvent(d, { kind: 'removed', ids: [77] }), false);
  assert.equal(applyDataEvent(d, { kind: 'linked', links: [{ source: 'x', target: 1 }] }), false);
});

test('graph files: node-link JSON as networkx and d3 write it, and edge lists', () => {
  const g = readGraph(JSON.stringify({
    nodes: [{ id: 'Myriel', group: 1 }, { id: 'Napoleon', color: '#AA0000', radius: 9 }, { id: 7, name: 'Seven' }, { id: 'Napoleon' }, { id: 8, color: 'red', radius: 500 }],
    links: [{ source: 'Napoleon', target: 'Myriel' }, { source: 'Myriel', target: 'Napoleon' }, { source: 7, target: 7 }, { source: 2, target: 0, distance: 50 }],
  }));
  assert.deepEqual(g.nodes.map((n) => n.cell.label), ['Myriel', 'Napoleon', 'Seven', '8']);
  assert.deepEqual(g.nodes[1].cell, { label: 'Napoleon', color: '#aa0000', radius: 9, key: 'Napoleon' });
  assert.equal(g.nodes[0].cell.group, '1');
  assert.deepEqual(g.nodes.map((n) => n.cell.key), ['Myriel', 'Napoleon', 7, 8]);
  assert.deepEqual(g.nodes.map((n) => n.cell.attrs), [undefined, undefined, { name: 'Seven' }, { color: 'red', radius: 500 }]);
  assert.deepEqual(g.edges, [{ source: 1, target: 0 }, { source: 2, target: 0, distance: 50 }]);
  assert.equal(g.notes.length, 5);
  const csv = readGraph('Source,Target\n"Valjean, Jean",Javert\nJavert\tFantine\n');
  assert.deepEqual(csv.nodes.map((n) => n.key), ['Valjean, Jean', 'Javert', 'Fantine']);
  assert.deepEqual(fieldsOf('a  b {}'), ['a', 'b', '{}']);
  assert.throws(() => readGraph('alone\n'), /no links found/);
  assert.throws(() => readGraph('{"nodes":'), /not valid JSON/);
  assert.equal(readGraph(`${'é'.repeat(90)},b\n`).nodes[0].cell.label.length, 80);
});

test('the importer sends batches within the limits and links by the ids the server gave', () => {
  const graph = readGraph(JSON.stringify({ nodes: [0, 1, 2, 3, 4].map((i) => ({ id: `n${i}`, label: 'x'.repeat(60) })),
    links: [{ source: 'n0', target: 'n1' }, { source: 'n3', target: 'n4' }] }));
  const im = createImporter(graph, { maxAddPerMessage: 2, maxMessageBytes: 400, maxAttrBytes: 1024 }, { window: 1 });
  const first = im.next();
  assert.equal(first.cells.length, 2);
  assert.equal(im.next(), null); // one at a time (a window of 1)
  assert.equal(im.event({ kind: 'added', by: 'c9', ids: [1, 2] }, 'c3'), false);
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [10, 11] }, 'c3'));
  im.next();
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [12, 13] }, 'c3'));
  im.next();
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [14] }, 'c3'));
  const links = im.next();
  assert.deepEqual(links.links, [{ source: 10, target: 11 }, { source: 13, target: 14 }]);
  assert.ok(im.refused({ ref: links.ref, message: 'cells 10 and 11 are already linked' }));
  assert.ok(im.done);
  assert.deepEqual(im.progress, { done: 5, total: 7, cells: 5, links: 0 });
  assert.deepEqual(im.notes, ['2 link(s) refused by the server: cells 10 and 11 are already linked']);
});

test('graph files keep ids as keys (of their type) and what is not drawn as attributes', () => {
  const karate = readGraph(JSON.stringify({ directed: false, multigraph: false, graph: {},
    nodes: [{ club: 'Mr. Hi', id: 0 }, { club: 'Officer', id: 1, deep: { a: [1, { b: null }] } }, { id: 'k'.repeat(201) }],
    links: [{ weight: 4, source: 0, target: 1 }, { source: 1, target: 'k'.repeat(201), distance: 'far', strength: 0.5 }] }));
  assert.deepEqual(karate.nodes.map((n) => n.cell.key), [0, 1, undefined]);
  assert.deepEqual(karate.nodes.map((n) => n.cell.attrs), [{ club: 'Mr. Hi' }, { club: 'Officer', deep: { a: [1, { b: null }] } }, undefined]);
  assert.deepEqual(karate.edges, [{ source: 0, target: 1, strength: 1, attrs: { weight: 4 } }, { source: 1, target: 2, strength: 0.5, attrs: { distance: 'far' } }]);
  assert.ok(karate.notes.some((n) => n.includes('id(s) not kept')), karate.notes);
  // Too deep: left out, noted.
  const deep = readGraph(JSON.stringify({ nodes: [{ id: 'a', x: [[[[[[[[[1]]]]]]]]] }, { id: 'b' }], links: [{ source: 'a', target: 'b' }] }));
  assert.equal(deep.nodes[0].cell.attrs, undefined);
  assert.ok(deep.notes.some((n) => n.includes('nested at most 8')), deep.notes);
  // Edge lists: the ids as string keys, further columns as attributes (JSON numbers as numbers).
  const csv = readGraph('source,target,weight,kind\na,b,2.5,x\nb,c,,007\n');
  assert.deepEqual(csv.nodes.map((n) => n.cell.key), ['a', 'b', 'c']);
  assert.deepEqual(csv.edges.map((e) => e.attrs), [{ weight: 2.5, kind: 'x' }, { kind: '007' }]);
  assert.deepEqual(readGraph('0 1 3\n1 2 1.5 extra\n').edges.map((e) => e.attrs), [{ weight: 3 }, { weight: 1.5 }]);
});

test('a link\'s weight is its strength, over the heaviest; only when every weight is a number at least 0', () => {
  const weighted = readGraph('a b 2\nb c 8\nc d 0\n');
  assert.deepEqual(weighted.edges.map((e) => e.strength), [0.25, 1, 0]);
  // A strength of its own wins; links without a weight keep the default.
  const mixed = readGraph(JSON.stringify({ nodes: [{ id: 1 }, { id: 2 }, { id: 3 }],
    links: [{ source: 1, target: 2, weight: 3, strength: 0.1 }, { source: 2, target: 3, weight: 6 }, { source: 1, target: 3 }] }));
  assert.deepEqual(mixed.edges.map((e) => e.strength), [0.1, 1, undefined]);
  // A weight that is not a number at least 0 anywhere: no weights used.
  assert.deepEqual(readGraph('a b 2\nb c heavy\n').edges.map((e) => e.strength), [undefined, undefined]);
  assert.deepEqual(readGraph('a b 2\nb c -1\n').edges.map((e) => e.strength), [undefined, undefined]);
  assert.deepEqual(readGraph('a b 0\nb c 0\n').edges.map((e) => e.strength), [undefined, undefined]);
});

test('the importer sends keys and attrs within maxAttrBytes, and none to a server that keeps none', () => {
  const graph = readGraph(JSON.stringify({ nodes: [{ id: 0, club: 'x' }, { id: 1, blob: 'y'.repeat(200) }],
    links: [{ source: 0, target: 1, weight: 4 }] }));
  const im = createImporter(graph, { maxAddPerMessage: 10, maxMessageBytes: 4096, maxAttrBytes: 100 });
  assert.deepEqual(im.next().cells, [{ label: '0', key: 0, attrs: { club: 'x' } }, { label: '1', key: 1 }]);
  assert.ok(im.event({ kind: 'added', by: 'c1', ids: [5, 6] }, 'c1'));
  assert.deepEqual(im.next().links, [{ source: 5, target: 6, strength: 1, attrs: { weight: 4 } }]);
  assert.deepEqual(im.notes, ['1 node attribute set(s) left out: over maxAttrBytes (100) or too big for a message']);
  // Sized as the server encodes them: 1e-7 is 1e-07 there.
  assert.equal(serverSize({ a: 1e-7, b: 0.5, c: 1e21 }), '{"a":1e-07,"b":0.5,"c":1e+21}'.length);
  // Within maxAttrBytes but too big for any message: sent without them, not past the limit.
  const tight = createImporter(graph, { maxAddPerMessage: 10, maxMessageBytes: 256, maxAttrBytes: 2000 });
  const sent = tight.next();
  assert.deepEqual(sent.cells, [{ label: '0', key: 0, attrs: { club: 'x' } }, { label: '1', key: 1 }]);
  assert.ok(new TextEncoder().encode(JSON.stringify(sent)).length <= 256);
  assert.deepEqual(tight.notes, ['1 node attribute set(s) left out: over maxAttrBytes (2000) or too big for a message']);
  const old = createImporter(graph, { maxAddPerMessage: 10, maxMessageBytes: 4096 });
  assert.deepEqual(old.next().cells, [{ label: '0' }, { label: '1' }]);
  assert.ok(old.notes[0].includes('not kept'));
});

test('links are drawn under the cells, a quarter toward their colour, clipped', () => {
  const buf = new Int32Array(10 * 10).fill(0xffffffff | 0);
  const data = createCellData();
  applyDataMessage(data, { cells: { id: [] }, links: { source: [1], target: [2] } });
  const pairs = createLinkIndex()([1, 2], new Map([[1, 0], [2, 1]]), data);
  assert.deepEqual([...pairs], [0, 1]);
  assert.equal(drawLinks({ buf, w: 10, h: 10 }, pairs, [0, 5, 100, 5], 0, 0, 1, 0xff000000 | 0), 1);
  assert.notEqual(buf[5 * 10 + 3], 0xffffffff | 0); // row 5 is darker
  assert.equal(buf[4 * 10 + 3], 0xffffffff | 0);
});

test('cells are grouped by radius for stamping', () => {
  const groups = createRadiusGroups()({ xy: [1, 2, 3, 4, 5, 6], count: 3, slots: [0, 1, 2], radii: new Float64Array([0, 30, 0]), cellSize: 20 });
  assert.deepEqual(groups.map((g) => [g.r, [...g.xy], [...g.slots]]), [[30, [3, 4], [1]], [10, [1, 2, 5, 6], [0, 2]]]);
});

test('a restore replaces the data with its own', () => {
  const d = createCellData();
  applyDataMessage(d, { cells: { id: [1, 2], label: ['a', 'b'] }, links: { source: [1], target: [2] } });
  assert.ok(applyDataEvent(d, { kind: 'restored', moment: 5, ids: [3], data: { cells: { id: [3], label: ['c'] }, links: { source: [], target: [] } } }));
  assert.deepEqual([...d.cells.keys()], [3]);
  assert.equal(d.links.size, 0);
  assert.equal(applyDataEvent(d, { kind: 'restored', moment: 5, ids: [3] }), false, 'no data said: kept');
});

// the links held by their ends, "low-high", sorted
const endsOf = (d) => [...d.links.values()].map((l) => (l.source < l.target ? `${l.source}-${l.target}` : `${l.target}-${l.source}`)).sort();

test('a removal takes its cells\u2019 links by each cell\u2019s own, kept as links come and go', () => {
  const d = createCellData();
  // a chain 1-2-…-40 and a star around 1
  const source = [];
  const target = [];
  for (let i = 1; i < 40; i++) source.push(i), target.push(i + 1);
  for (let i = 3; i <= 40; i++) source.push(1), target.push(i);
  applyDataMessage(d, { cells: { id: [1, 2], label: ['hub', 'two'] }, links: { source, target } });
  const keys = () => endsOf(d);
  // the model: every link whose ends are both still there
  const model = (gone) => [...new Set(source.map((s, i) => [s, target[i]]).filter(([a, b]) => !gone.has(a) && !gone.has(b))
    .map(([a, b]) => (a < b ? `${a}-${b}` : `${b}-${a}`)))].sort();
  // the first removals go over every link; then each cell's links are indexed
  const gone = new Set();
  for (const id of [5, 11, 17, 23]) {
    assert.ok(applyDataEvent(d, { kind: 'removed', ids: [id] }));
    gone.add(id);
    assert.deepEqual(keys(), model(gone));
    assert.equal(d.near, null, 'not indexed yet');
  }
  assert.ok(applyDataEvent(d, { kind: 'removed', ids: [29] }));
  gone.add(29);
  assert.deepEqual(keys(), model(gone));
  assert.ok(d.near instanceof Map, 'made by the fifth removal');
  // links added and taken away after it are kept in it
  applyDataEvent(d, { kind: 'linked', links: [{ source: 7, target: 30 }] });
  applyDataEvent(d, { kind: 'unlinked', links: [{ source: 8, target: 9 }] });
  applyDataEvent(d, { kind: 'removed', ids: [30, 9] });
  assert.ok(!d.links.has(linkKey(7, 30)), 'a link made after the first removal goes with its cell');
  assert.ok(!d.links.has(linkKey(9, 8)));
  assert.equal(d.links.has(linkKey(7, 8)), true);
  assert.ok(!applyDataEvent(d, { kind: 'removed', ids: [30] }), 'gone already: nothing changes');
  applyDataEvent(d, { kind: 'removed', ids: [1] });
  assert.ok([...d.links.values()].every((l) => l.source !== 1 && l.target !== 1), 'the hub took its 38 links');
  assert.ok(!d.cells.has(1));
  assert.equal(d.cells.get(2).label, 'two');
  // a clear: one pass; a data message starts over
  applyDataEvent(d, { kind: 'cleared', ids: Array.from({ length: 40 }, (_, i) => i + 1) });
  assert.equal(d.links.size, 0);
  assert.equal(d.cells.size, 0);
  applyDataMessage(d, { cells: { id: [] }, links: { source: [3], target: [4] } });
  assert.equal(d.near, null);
  applyDataEvent(d, { kind: 'removed', ids: [4] });
  assert.equal(d.links.size, 0);
});

test('a patch takes the data back: gone cells with their links, cells set whole, links unlinked and set', () => {
  const d = createCellData();
  applyDataMessage(d, { cells: { id: [1, 2, 3, 13], label: ['a', 'b', 'THREE', 'new'], group: [null, null, 'g', null] },
    links: { source: [1, 2, 3, 13], target: [2, 3, 4, 3] } });
  const version = d.version;
  // back to before 13 came and 3 was renamed, when 5 was there linked to 4, and 3-4 was not linked
  assert.ok(applyDataPatch(d, {
    cells: { id: [3, 5], label: ['three', 'five'] },
    links: { source: [4], target: [5] },
    gone: [13],
    unlinked: { source: [3], target: [4] },
  }));
  assert.deepEqual([...d.cells].sort(([a], [b]) => a - b), [[1, { label: 'a' }], [2, { label: 'b' }], [3, { label: 'three' }], [5, { label: 'five' }]],
    'set whole: 3 lost its group');
  assert.deepEqual(endsOf(d), ['1-2', '2-3', '4-5'], '13 took its link, 3-4 went');
  assert.ok(d.version > version);
  assert.ok(!applyDataPatch(d, { cells: { id: [] }, links: { source: [], target: [] }, gone: [], unlinked: { source: [], target: [] } }), 'nothing');
  assert.ok(!applyDataPatch(d, null));
  // a cell set with no field at all has no record
  applyDataPatch(d, { cells: { id: [5], label: [null] } });
  assert.ok(!d.cells.has(5));
});

test('a link\u2019s key: the same whichever end is named first, distinct for distinct pairs, past 2^26 too', () => {
  assert.equal(linkKey(3, 9), linkKey(9, 3));
  assert.notEqual(linkKey(3, 9), linkKey(3, 10));
  assert.notEqual(linkKey(1, 2 ** 26 + 1), linkKey(2, 1), 'no carry into the low end');
  const big = 2 ** 26 + 5;
  assert.equal(linkKey(big, 7), linkKey(7, big));
  assert.notEqual(linkKey(big, 7), linkKey(7, big + 1));
  const keys = new Set();
  for (const [a, b] of [[1, 2], [2, 3], [1, 3], [2 ** 26 - 1, 2 ** 26 - 2], [2 ** 26, 1], [2 ** 26, 2], [9, 2 ** 40]]) keys.add(linkKey(a, b));
  assert.equal(keys.size, 7);
  const d = createCellData();
  applyDataMessage(d, { cells: { id: [] }, links: { source: [big, 4], target: [7, 5] } });
  applyDataEvent(d, { kind: 'unlinked', links: [{ source: 7, target: big }] });
  assert.deepEqual([...d.links.values()], [{ source: 4, target: 5 }], 'a big id\u2019s link found by its key and taken away');
});
