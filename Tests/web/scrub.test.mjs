// node --test Tests/web/  — the moments asked while scrubbing (Public/scrub.js): one request
// under way, the newest time sent when the answer comes, `have` so the data is not sent again
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScrub, momentOf } from '../../Public/scrub.js';

// a fake server's side of the connection: what was sent, and answers made from it
function fakeLink({ connected = true } = {}) {
  const sent = [];
  return {
    sent,
    connected,
    send(msg) {
      if (!this.connected) return false;
      sent.push(msg);
      return true;
    },
  };
}

// the answer a server gives to request `req`: data left out when `have` is its dataSeq
function answer(req, { dataSeq = 4, ids = [1, 2], cells = { id: [1, 2], label: ['a', 'b'] }, links = { source: [1], target: [2] }, ...extra } = {}) {
  const msg = { type: 'moment', at: req.at, seq: 9, tick: 100, ids, x: ids.map((id) => id * 10), y: ids.map(() => -1), params: { cellSize: 12 }, pinned: [2, 77], dataSeq, ...extra };
  if (req.have !== dataSeq) Object.assign(msg, { cells, links });
  return msg;
}

test('one request under way: the newest time wanted goes when the answer comes', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1000);
  scrub.want(1100);
  scrub.want(1200.4);
  assert.equal(link.sent.length, 1, 'only the first went');
  assert.deepEqual(link.sent[0], { type: 'moment', at: 1000, ref: 'moment-1' });
  assert.ok(scrub.busy);
  assert.equal(scrub.asking, 1000);
  const m = scrub.answer(answer(link.sent[0]));
  assert.equal(m.at, 1000);
  assert.equal(link.sent.length, 2, 'the newest went at once');
  assert.deepEqual(link.sent[1], { type: 'moment', at: 1200, ref: 'moment-2', have: 4, patch: true }, 'with the data held');
  scrub.answer(answer(link.sent[1]));
  assert.equal(link.sent.length, 2, 'nothing more wanted');
  assert.ok(!scrub.busy);
});

test('data left out reuses the data held (the same object); new data replaces it', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1);
  const a = scrub.answer(answer(link.sent[0]));
  assert.equal(a.data.cells.get(1).label, 'a');
  assert.equal(a.data.links.size, 1);
  scrub.want(2);
  assert.equal(link.sent[1].have, 4);
  const b = scrub.answer(answer(link.sent[1]));
  assert.equal(b.data, a.data, 'not sent again, not built again');
  scrub.want(3);
  const c = scrub.answer(answer(link.sent[2], { dataSeq: 7, cells: { id: [1], label: ['z'] }, links: { source: [], target: [] } }));
  assert.notEqual(c.data, a.data);
  assert.equal(c.data.cells.get(1).label, 'z');
  assert.equal(c.data.links.size, 0);
  scrub.want(4);
  assert.equal(link.sent[3].have, 7);
  // left out, yet not the data held (a request that said an answer's dataSeq this page then
  // could not take): not drawn, asked again with the data held
  const d = scrub.answer({ ...answer({ at: 4, have: 9 }, { dataSeq: 9 }) });
  assert.equal(d, null);
  assert.deepEqual(link.sent[4], { type: 'moment', at: 4, ref: 'moment-5', have: 7, patch: true });
});

test('the next time wanted goes before the answer is taken, with the have it leaves', () => {
  const link = fakeLink();
  const sent = [];
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1);
  scrub.answer(answer(link.sent[0]));
  scrub.want(2);
  scrub.want(3);
  // the data of the answer to 2 is new (dataSeq 6): 3 goes out saying it before it is taken
  const msg = answer(link.sent[1], { dataSeq: 6, cells: { id: [1], label: ['q'] } });
  Object.defineProperty(msg, 'ids', { get: () => { sent.push(link.sent.length); return [1, 2]; } });
  const m = scrub.answer(msg);
  assert.equal(sent[0], 3, 'already sent when the answer was read');
  assert.deepEqual(link.sent[2], { type: 'moment', at: 3, ref: 'moment-3', have: 6, patch: true });
  assert.equal(m.data.cells.get(1).label, 'q');
  // an answer of data this page does not hold while a time is wanted: that request says the
  // data held, not the answer's
  scrub.want(4);
  scrub.answer({ ...answer({ at: 3, have: 6 }, { dataSeq: 8 }), base: 7, since: [] });
  assert.deepEqual(link.sent[3], { type: 'moment', at: 4, ref: 'moment-4', have: 6, patch: true });
});

test('the events since the data held change it in place, a new version; changes of other data are asked again', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1);
  const a = scrub.answer(answer(link.sent[0], { ids: [1, 2, 3], cells: { id: [1, 2], label: ['a', 'b'] }, links: { source: [1, 2], target: [2, 3] } }));
  scrub.want(2);
  assert.equal(link.sent[1].have, 4);
  const since = [
    { seq: 5, kind: 'updated', cells: [{ id: 1, label: 'A' }] },
    { seq: 6, kind: 'removed', ids: [3] },
    { seq: 8, kind: 'added', ids: [9], cells: [{ id: 9, label: 'new' }] },
    { seq: 8.5, kind: 'nonsense' },
    null,
    { seq: 9, kind: 'linked', links: [{ source: 9, target: 1 }] },
  ];
  const version = a.data.version;
  const b = scrub.answer({ ...answer({ at: 2, have: 8 }, { dataSeq: 9, ids: [1, 2, 9] }), base: 4, since });
  assert.equal(b.data, a.data, 'the data held, changed');
  assert.ok(b.data.version > version, 'a new version: the canvas\u2019s caches of the old one go');
  assert.deepEqual([...b.data.cells].map(([id, f]) => [id, f.label]), [[1, 'A'], [2, 'b'], [9, 'new']]);
  assert.deepEqual([...b.data.links.values()].map((l) => `${l.source}-${l.target}`).sort(), ['1-2', '9-1'], 'the removed cell\u2019s link went with it');
  scrub.want(3);
  assert.equal(link.sent[2].have, 9, 'the data made from the changes is held');
  // changes of data this page does not hold: not drawn, the moment asked again with the data
  // held
  const c = scrub.answer({ ...answer({ at: 3, have: 12 }, { dataSeq: 12 }), base: 11, since: [] });
  assert.equal(c, null);
  assert.deepEqual(link.sent[3], { type: 'moment', at: 3, ref: 'moment-4', have: 9, patch: true });
  assert.equal(b.data.cells.get(1).label, 'A', 'the data held is untouched');
});

test('a moment like the one before keeps its data\u2019s version and its owners\u2019 runs', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1);
  const a = scrub.answer(answer(link.sent[0], { owners: [['c1', 1, 2]] }));
  scrub.want(2);
  const b = scrub.answer({ ...answer(link.sent[1], { dataSeq: 5, owners: [['c1', 1, 2]] }), base: 4, since: [{ seq: 5, kind: 'unlinked', links: [{ source: 7, target: 8 }] }] });
  assert.equal(b.data, a.data);
  assert.equal(b.data.version, a.data.version, 'no event changed the data: the same version');
  assert.equal(b.owners, a.owners, 'the same runs: the same object (the canvas keeps its colours)');
  assert.equal(b.ids, a.ids);
  scrub.want(3);
  const c = scrub.answer(answer(link.sent[2], { dataSeq: 5, owners: [['c2', 1, 2]] }));
  assert.notEqual(c.owners, a.owners);
});

test('dragged back: a patch of the data held takes it back in place', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(20);
  const a = scrub.answer(answer(link.sent[0], { dataSeq: 9, ids: [1, 2, 9], cells: { id: [1, 9], label: ['A', 'new'] }, links: { source: [9], target: [1] } }));
  scrub.want(10);
  assert.deepEqual(link.sent[1], { type: 'moment', at: 10, ref: 'moment-2', have: 9, patch: true }, 'it takes a patch');
  const patch = { cells: { id: [1], label: ['a'] }, links: { source: [], target: [] }, gone: [9], unlinked: { source: [], target: [] } };
  const b = scrub.answer({ ...answer({ at: 10, have: 4 }, { dataSeq: 4, ids: [1, 2] }), base: 9, patch });
  assert.equal(b.data, a.data, 'the data held, taken back');
  assert.deepEqual([...b.data.cells].map(([id, f]) => [id, f.label]), [[1, 'a']]);
  assert.equal(b.data.links.size, 0, '9 took its link with it');
  scrub.want(5);
  assert.equal(link.sent[2].have, 4, 'the data taken back is held');
  // a patch of data this page does not hold: not drawn, asked again
  assert.equal(scrub.answer({ ...answer({ at: 5, have: 3 }, { dataSeq: 3 }), base: 7, patch }), null);
  assert.equal(b.data.cells.get(1).label, 'a', 'untouched');
});

test('primed: the room as it is now, asked only when nothing is held, its links indexed ahead', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.prime(50);
  scrub.prime(60);
  assert.equal(link.sent.length, 1, 'once');
  const now = scrub.answer({ ...answer(link.sent[0]), ref: link.sent[0].ref });
  assert.ok(now.data.near instanceof Map, 'each cell\u2019s links indexed before the drag');
  scrub.prime(70);
  assert.equal(link.sent.length, 1, 'data held: not again');
  scrub.want(40);
  assert.equal(link.sent[1].have, 4);
  const first = scrub.answer({ ...answer(link.sent[1]), ref: link.sent[1].ref });
  assert.equal(first.data, now.data, 'the drag\u2019s first moment goes on from it');
});

test('a moment as the canvas draws it', () => {
  const m = momentOf(answer({ at: 5 }, { ids: [3, 1, 2], clamped: true }), () => 'data');
  assert.deepEqual(m.ids, [3, 1, 2]);
  assert.deepEqual([...m.xy], [30, -1, 10, -1, 20, -1]);
  assert.equal(m.index.get(2), 2);
  assert.deepEqual([...m.pinned], [2], 'pins of cells not there are dropped');
  assert.equal(m.params.cellSize, 12);
  assert.equal(m.clamped, true);
  assert.equal(m.seq, 9);
  assert.equal(m.data, 'data');
  assert.equal(m.owners, null, 'not said');
  assert.deepEqual(momentOf({ ...answer({ at: 5 }), owners: [['c1', 1, 2]] }).owners, [['c1', 1, 2]], 'who had added them then');
  // an empty room
  assert.equal(momentOf({ type: 'moment', at: 5, ids: [] }).ids.length, 0);
  // shapes that cannot be drawn
  assert.equal(momentOf({ type: 'moment', at: 5, ids: [1], x: [1] }), null);
  assert.equal(momentOf({ type: 'moment', ids: [] }), null);
  assert.equal(momentOf({ type: 'history' }), null);
  assert.equal(momentOf(null), null);
  // unusable numbers are 0, cells as rows are taken too
  const scrub = createScrub({ send: () => true });
  scrub.want(1);
  const r = scrub.answer({ type: 'moment', at: 1, ids: [1, 2], x: [null, 2], y: ['x', 3], dataSeq: 1, cells: [{ id: 1, label: 'one' }, { id: 2, group: 'g' }] });
  assert.deepEqual([...r.xy], [0, 0, 2, 3]);
  assert.equal(r.data.cells.get(1).label, 'one');
  assert.equal(r.data.cells.get(2).group, 'g');
});

test('a refused request is no longer under way; someone else\u2019s error is not ours', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(10);
  scrub.want(20);
  assert.equal(scrub.refused({ type: 'error', code: 'bad_request', ref: 'a1' }), false);
  assert.ok(scrub.busy);
  assert.equal(scrub.refused({ type: 'error', code: 'bad_request', ref: 'moment-1' }), true);
  assert.equal(link.sent.at(-1).at, 20, 'the newest went');
});

test('not connected: still wanted, sent on resume; a new connection holds no data', () => {
  const link = fakeLink({ connected: false });
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(10);
  assert.equal(link.sent.length, 0);
  assert.ok(!scrub.busy);
  link.connected = true;
  scrub.resume();
  assert.equal(link.sent[0].at, 10);
  scrub.answer(answer(link.sent[0]));
  scrub.want(11);
  // the connection drops with the request under way: the next one does not wait for it
  scrub.resume();
  scrub.want(12);
  assert.deepEqual(link.sent.at(-1), { type: 'moment', at: 12, ref: 'moment-3' }, 'no have: the data held was the old connection\u2019s');
});

test('back to live: nothing more asked, the answer under way still taken', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1);
  scrub.want(2);
  scrub.cancel();
  assert.ok(scrub.answer(answer(link.sent[0])));
  assert.equal(link.sent.length, 1);
  scrub.want(Number.NaN);
  assert.equal(link.sent.length, 1);
});

test('each answer is timed from its request', () => {
  let clock = 0;
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m), now: () => clock });
  scrub.want(1);
  clock = 30;
  scrub.want(2);
  clock = 40;
  scrub.answer(answer(link.sent[0]));
  clock = 100;
  scrub.answer(answer(link.sent[1]));
  assert.deepEqual(scrub.figures, {
    answers: 2, meanMs: 50, maxMs: 60, buildMeanMs: 0, buildMaxMs: 0,
    kinds: { whole: { answers: 1, buildMeanMs: 0 }, held: { answers: 1, buildMeanMs: 0 } },
  }, 'the first brought the data, the second left it out');
});

test('a moment of the same cells as the one before takes its ids and index (the canvas caches hold)', () => {
  const link = fakeLink();
  const scrub = createScrub({ send: (m) => link.send(m) });
  scrub.want(1);
  const a = scrub.answer(answer(link.sent[0], { ids: [4, 5, 6] }));
  scrub.want(2);
  const b = scrub.answer(answer(link.sent[1], { ids: [4, 5, 6] }));
  assert.equal(b.ids, a.ids);
  assert.equal(b.index, a.index);
  assert.notEqual(b.xy, a.xy, 'positions of their own');
  scrub.want(3);
  const c = scrub.answer(answer(link.sent[2], { ids: [4, 6] }));
  assert.notEqual(c.ids, a.ids);
  assert.equal(c.index.get(6), 1);
});
