// node --test Tests/web/  — finding cells by label or id (Public/search.js) and their
// neighbours (Public/neighbours.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSearch, createSearchIndex, fold } from '../../Public/search.js';
import { adjacencyOf, createNeighbours, neighbourhood } from '../../Public/neighbours.js';
import { createCellData, linkKey } from '../../Public/celldata.js';

function cellsOf(labels) {
  const cells = new Map();
  labels.forEach((label, i) => { if (label !== null) cells.set(i + 1, { label, group: String(i % 3) }); });
  return { ids: labels.map((_, i) => i + 1), cells };
}

test('labels and queries compare without case or accents', () => {
  assert.equal(fold('Misérables'), 'miserables');
  assert.equal(fold('ÉTOILE Ångström'), 'etoile angstrom');
  assert.equal(fold('Mme. Thénardier'), 'mme. thenardier');
  const { ids, cells } = cellsOf(['Mme. Thénardier', 'Thénardier', 'Éponine', 'Valjean']);
  const index = createSearchIndex(ids, cells);
  assert.deepEqual(index.query('thenard').matches.map((m) => m.label), ['Thénardier', 'Mme. Thénardier']);
  assert.deepEqual(index.query('EPONINE').matches.map((m) => m.id), [3]);
  assert.deepEqual(index.query('ép').matches.map((m) => m.label), ['Éponine']);
  assert.equal(index.query('   ').total, 0);
  assert.equal(index.query('zzz').total, 0);
});

test('ranking: the whole label, its start, a word start, inside; then shorter, then older', () => {
  const { ids, cells } = cellsOf(['Javert', 'Jean Valjean', 'Valjean', 'Valjeanne', 'Valjean', 'XVALJEANX']);
  const { matches, total } = createSearchIndex(ids, cells).query('valjean');
  assert.equal(total, 5);
  assert.deepEqual(matches.map((m) => m.id), [3, 5, 4, 2, 6]);
  assert.deepEqual(matches.map((m) => m.rank), [0, 0, 1, 2, 3]);
  assert.equal(matches[0].group, '2', 'a match says its group');
  const limited = createSearchIndex(ids, cells).query('valjean', 2);
  assert.deepEqual(limited.matches.map((m) => m.id), [3, 5], 'the best of all, not the first found');
  assert.equal(limited.total, 5);
});

test('an id typed as digits or #N finds that cell first; a key finds an unlabelled cell', () => {
  const ids = [1, 2, 12, 40];
  const cells = new Map([[2, { label: 'room 12' }], [40, { key: 'node-x' }]]);
  const index = createSearchIndex(ids, cells);
  assert.deepEqual(index.query('12').matches.map((m) => m.id), [12, 2]);
  assert.deepEqual(index.query('#12').matches.map((m) => m.id), [12]);
  assert.equal(index.query('12').matches[0].label, '', 'a cell without label or key still comes by id');
  assert.deepEqual(index.query('node-x').matches.map((m) => m.id), [40]);
  assert.deepEqual(index.query('99').matches, [], 'an id not in the room finds nothing');
});

test('the index is built again only after the membership or the data changed', () => {
  let built = 0;
  const data = createCellData();
  data.cells.set(1, { label: 'Cosette' });
  let ids = [1];
  const search = createSearch(() => {
    built++;
    return { ids, cells: data.cells, version: data.version };
  });
  assert.equal(search.query('cos').total, 1);
  assert.equal(search.query('cose').total, 1, 'same index');
  data.cells.set(2, { label: 'Cosette II' });
  ids = [1, 2];
  data.version++;
  assert.equal(search.query('cose').total, 2, 'rebuilt for the new membership');
  assert.equal(built, 3);
});

test('100k labels: every query answers with the best ten and the count', () => {
  const labels = Array.from({ length: 100_000 }, (_, i) => `Node ${i} é${i % 97}`);
  const { ids, cells } = cellsOf(labels);
  const index = createSearchIndex(ids, cells);
  const r = index.query('node 9999');
  assert.equal(r.total, 11);
  assert.equal(r.matches[0].label, 'Node 9999 é9999'.replace('é9999', `é${9999 % 97}`));
  assert.equal(index.query('e5').total, labels.filter((l) => fold(l).includes('e5')).length);
  assert.equal(index.query('n').matches.length, 10);
});

test('neighbours: one hop, two hops, degree, the adjacency kept per data version', () => {
  const data = createCellData();
  for (const [a, b] of [[1, 2], [1, 3], [3, 4], [4, 5], [6, 7]]) data.links.set(linkKey(a, b), { source: a, target: b });
  const adj = adjacencyOf(data.links);
  assert.deepEqual(neighbourhood(adj, 1, 1).ring1, [2, 3]);
  const two = neighbourhood(adj, 1, 2);
  assert.deepEqual(two.ring2, [4]);
  assert.deepEqual([...two.cells].sort(), [1, 2, 3, 4]);
  assert.deepEqual(neighbourhood(adj, 9, 2).ring1, [], 'a cell without links has none');
  const n = createNeighbours(() => data);
  assert.equal(n.degree(1), 2);
  assert.equal(n.degree(4), 2);
  assert.deepEqual(n.linked(3), [1, 4]);
  assert.deepEqual(n.linked(99), []);
  data.links.set(linkKey(1, 5), { source: 1, target: 5 });
  assert.equal(n.degree(1), 2, 'not rebuilt before the version moves');
  data.version++;
  assert.equal(n.degree(1), 3);
});
