// node --test Tests/web/  — the page's importer (Public/importer.js) when the room moves to
// another server mid-import: what the room holds (its data after the failover) decides what
// is sent again, so nothing arrives twice and nothing the failover lost is left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDataMessage, createCellData } from '../../Public/celldata.js';
import { readGraph } from '../../Public/graphfile.js';
import { ANSWER_TIMEOUT, DATA_TIMEOUT, LEFTOVER_WAIT, createImporter } from '../../Public/importer.js';

const LIMITS = { maxAddPerMessage: 2, maxMessageBytes: 4000, maxAttrBytes: 1024 };
const graph = () => readGraph(JSON.stringify({ nodes: [0, 1, 2, 3].map((id) => ({ id })),
  links: [{ source: 0, target: 1 }, { source: 2, target: 3 }] }));
const keys = (msg) => msg.cells.map((c) => c.key);
const ends = (msg) => msg.links.map((l) => `${l.source}-${l.target}`);
function room(cells, links = []) {
  const d = createCellData();
  applyDataMessage(d, { type: 'data', cells: { id: cells.map(([id]) => id), key: cells.map(([, key]) => key) },
    links: { source: links.map(([a]) => a), target: links.map(([, b]) => b) } });
  return d;
}

test('a batch the room holds after a failover is not sent again', () => {
  const im = createImporter(graph(), LIMITS);
  assert.deepEqual(keys(im.next()), [0, 1]);
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [5, 6] }, 'c3'));
  assert.deepEqual(keys(im.next()), [2, 3]);
  im.failover();
  assert.equal(im.next(), null, 'nothing while the room data is awaited');
  im.resynced(room([[3, 2], [5, 0], [6, 1], [7, 2], [8, 3]]));
  assert.deepEqual(ends(im.next()), ['5-6', '7-8']);
  assert.ok(im.event({ kind: 'linked', by: 'c3' }, 'c3'));
  assert.ok(im.done);
  assert.deepEqual(im.progress, { done: 6, total: 6, cells: 4, links: 2 });
});

test('a batch the room lacks is sent again after a wait, unless its answer comes first', () => {
  const im = createImporter(graph(), LIMITS);
  im.next();
  im.event({ kind: 'added', by: 'c3', ids: [5, 6] }, 'c3');
  im.next();
  im.failover();
  im.resynced(room([[5, 0], [6, 1]]));
  assert.equal(im.next(), null);
  assert.equal(im.tick(100), false);
  assert.equal(im.tick(100 + LEFTOVER_WAIT), true);
  assert.deepEqual(keys(im.next()), [2, 3]);
  // The other way: the new owner applies the batch that waited in Redis.
  const late = createImporter(graph(), LIMITS);
  late.next();
  late.event({ kind: 'added', by: 'c3', ids: [5, 6] }, 'c3');
  late.next();
  late.failover();
  late.resynced(room([[5, 0], [6, 1]]));
  late.tick(100);
  assert.ok(late.event({ kind: 'added', by: 'c3', ids: [7, 8] }, 'c3'));
  assert.deepEqual(ends(late.next()), ['5-6', '7-8']);
  assert.equal(late.tick(200), false);
});

test('cells and links the failover lost are sent again, and said', () => {
  const im = createImporter(graph(), LIMITS);
  im.next();
  im.event({ kind: 'added', by: 'c3', ids: [5, 6] }, 'c3');
  im.next();
  im.event({ kind: 'added', by: 'c3', ids: [7, 8] }, 'c3');
  im.next();
  im.lost('c3'); // the connection, this time; the new one is c9
  im.resynced(room([[5, 0], [7, 2]]));
  assert.equal(im.progress.cells, 2);
  im.tick(10);
  im.tick(10 + LEFTOVER_WAIT);
  assert.deepEqual(keys(im.next()), [1, 3]);
  im.event({ kind: 'added', by: 'c9', ids: [9, 10] }, 'c9');
  assert.deepEqual(ends(im.next()), ['5-9', '7-10']);
  im.event({ kind: 'linked', by: 'c9' }, 'c9');
  assert.ok(im.done);
  assert.ok(im.notes.includes('sent again after the room moved: 2 cell(s) and 2 link(s) it did not hold'), im.notes);
});

test('links naming cells the failover lost go again once the cells are back, not refused', () => {
  // The new owner applies the batch that waited in Redis before it tells the failover: the
  // links go before the page hears of it, naming cells the old owner never saved.
  const im = createImporter(graph(), LIMITS);
  im.next();
  im.event({ kind: 'added', by: 'c3', ids: [5, 6] }, 'c3');
  im.next();
  im.event({ kind: 'added', by: 'c3', ids: [7, 8] }, 'c3');
  const linksRef = im.next().ref;
  im.failover();
  im.resynced(room([[5, 0], [7, 2]]));
  assert.deepEqual(keys(im.next()), [1, 3], 'the lost cells go at once, the links still in flight');
  assert.ok(im.refused({ ref: linksRef, message: 'unknown cell id 6' }));
  assert.equal(im.failed, null);
  assert.equal(im.next(), null, 'the links wait for the cells\' ids');
  im.event({ kind: 'added', by: 'c3', ids: [9, 10] }, 'c3');
  assert.deepEqual(ends(im.next()), ['5-9', '7-10']);
  im.event({ kind: 'linked', by: 'c3' }, 'c3');
  assert.ok(im.done);
  assert.deepEqual(im.progress, { done: 6, total: 6, cells: 4, links: 2 });
  assert.ok(!im.notes.some((n) => n.includes('refused')), im.notes);
});

test('no data after a reconnection: the room holds none of it; no answer at all ends the import', () => {
  const im = createImporter(graph(), LIMITS);
  im.next();
  im.lost('c3');
  assert.equal(im.tick(0, false), false);
  assert.equal(im.tick(DATA_TIMEOUT + 1, false), false, 'not while disconnected');
  assert.equal(im.tick(DATA_TIMEOUT + 2, true), true);
  im.tick(20);
  assert.equal(im.tick(20 + LEFTOVER_WAIT), true);
  assert.deepEqual(keys(im.next()), [0, 1]);
  im.tick(30);
  assert.equal(im.tick(30 + ANSWER_TIMEOUT), true);
  assert.match(im.failed, /no answer from the server/);
  const old = createImporter(graph(), { maxAddPerMessage: 2 });
  old.next();
  old.failover();
  assert.match(old.failed, /no cell keys to resume by/);
});

test('several messages in flight: answers pair up in order, errors by ref, links wait for every id', () => {
  const six = readGraph(JSON.stringify({ nodes: [0, 1, 2, 3, 4, 5].map((id) => ({ id })),
    links: [{ source: 0, target: 1 }, { source: 2, target: 3 }, { source: 4, target: 5 }, { source: 1, target: 2 }] }));
  const im = createImporter(six, LIMITS, { window: 2 });
  const first = im.next();
  const second = im.next();
  assert.deepEqual([keys(first), keys(second)], [[0, 1], [2, 3]]);
  assert.deepEqual([first.ref, second.ref], ['import-1', 'import-2']);
  assert.equal(im.next(), null, 'the window is full');
  assert.ok(im.waiting);
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [10, 11] }, 'c3'));
  assert.deepEqual(keys(im.next()), [4, 5]);
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [12, 13] }, 'c3'));
  assert.equal(im.next(), null, 'links wait for the last cells\' ids');
  assert.ok(im.waiting);
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [14, 15] }, 'c3'));
  const a = im.next();
  const b = im.next();
  assert.deepEqual([ends(a), ends(b)], [['10-11', '12-13'], ['14-15', '11-12']]);
  assert.equal(im.refused({ ref: 'import-9', message: 'x' }), false, 'no message in flight has that ref');
  assert.ok(im.refused({ ref: b.ref, message: 'maxLinks' }));
  assert.ok(im.event({ kind: 'linked', by: 'c3' }, 'c3'));
  assert.ok(im.done);
  assert.deepEqual(im.progress, { done: 8, total: 10, cells: 6, links: 2 });
  assert.ok(im.notes.includes('2 link(s) refused by the server: maxLinks'), im.notes);
});

test('a failover with several messages in flight finds each whole or not at all', () => {
  const im = createImporter(graph(), LIMITS, { window: 4 });
  assert.deepEqual(keys(im.next()), [0, 1]);
  assert.deepEqual(keys(im.next()), [2, 3]);
  im.failover();
  im.resynced(room([[20, 0], [21, 1]]));
  assert.equal(im.progress.cells, 2);
  assert.equal(im.next(), null, 'the second may still be answered');
  im.tick(5);
  assert.equal(im.tick(5 + LEFTOVER_WAIT), true);
  assert.deepEqual(keys(im.next()), [2, 3]);
  assert.ok(im.event({ kind: 'added', by: 'c3', ids: [22, 23] }, 'c3'));
  assert.deepEqual(ends(im.next()), ['20-21', '22-23']);
});
