// node --test Tests/web/  — the client-side model of Public/state.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyEvent, applyFrame, applyHello, applyStats, cellCount, createState, ownerLookup, selectIndex, selectedIndex,
} from '../../Public/state.js';

const PARAMS = { stiffness: 0.02, charge: 10, cellSize: 20, threshold: 0.3, tickRate: 20, theta: 0.9, collide: false, paused: false };
const hello = (extra = {}) => ({
  type: 'hello', protocol: 1, client: 'c7', clients: 2, params: PARAMS,
  limits: { maxCells: 100000, maxAddPerMessage: 1000, maxMessageBytes: 65536 }, tick: 10, settled: true, events: [], ...extra,
});
const ev = (seq, kind, extra = {}) => ({ type: 'event', seq, kind, tick: seq, ...extra });

test('hello sets params, client, clients, settled and keeps them as the whole set', () => {
  const s = createState();
  const r = applyHello(s, hello());
  assert.equal(r.restarted, false);
  assert.deepEqual(r.events, []);
  assert.equal(s.client, 'c7');
  assert.equal(s.clients, 2);
  assert.deepEqual(s.params, PARAMS);
  assert.equal(s.limits.maxAddPerMessage, 1000);
  assert.equal(s.settled, true);
});

test('frames: ids start a version, frames without ids reuse it, unknown versions are ignored', () => {
  const s = createState();
  applyHello(s, hello());
  // a frame without ids before any version is known is ignored
  assert.deepEqual(applyFrame(s, { type: 'frame', tick: 1, v: 3, xy: [1, 2] }), { applied: false, membership: false });
  let r = applyFrame(s, { type: 'frame', tick: 11, v: 17, ids: [1, 2, 5], xy: [10.5, -3, 0, 0, 22.1, 7.4] });
  assert.deepEqual(r, { applied: true, membership: true });
  assert.deepEqual(s.ids, [1, 2, 5]);
  assert.deepEqual([...s.xy], [10.5, -3, 0, 0, 22.1, 7.4]);
  assert.equal(s.index.get(5), 2);
  assert.equal(cellCount(s), 3);
  r = applyFrame(s, { type: 'frame', tick: 12, v: 17, xy: [1, 1, 2, 2, 3, 3] });
  assert.deepEqual(r, { applied: true, membership: false });
  assert.deepEqual([...s.xy], [1, 1, 2, 2, 3, 3]);
  assert.equal(s.tick, 12);
  // without ids and another v: ignored, nothing changes
  r = applyFrame(s, { type: 'frame', tick: 13, v: 18, xy: [9, 9, 9, 9] });
  assert.equal(r.applied, false);
  assert.deepEqual([...s.xy], [1, 1, 2, 2, 3, 3]);
  // a new version with the same ids is not a membership change
  r = applyFrame(s, { type: 'frame', tick: 14, v: 19, ids: [1, 2, 5], xy: [0, 0, 0, 0, 0, 0] });
  assert.deepEqual(r, { applied: true, membership: false });
  // empty and malformed frames never throw
  for (const f of [
    { type: 'frame' }, { type: 'frame', v: 19 }, { type: 'frame', v: 19, xy: 'x' }, { type: 'frame', v: 19, xy: [1] },
    { type: 'frame', v: 20, ids: [1], xy: [1, 2, 3] }, { type: 'frame', v: 20, ids: 'x', xy: [] },
  ]) assert.doesNotThrow(() => applyFrame(s, f));
  assert.deepEqual(s.ids, [1, 2, 5]);
  // an empty membership is fine
  r = applyFrame(s, { type: 'frame', tick: 15, v: 21, ids: [], xy: [] });
  assert.deepEqual(r, { applied: true, membership: true });
  assert.equal(cellCount(s), 0);
  assert.equal(s.selectedId, null);
});

test('after hello, frames wait for ids again', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, { type: 'frame', tick: 1, v: 1, ids: [1], xy: [0, 0] });
  applyHello(s, hello());
  assert.equal(applyFrame(s, { type: 'frame', tick: 2, v: 1, xy: [5, 5] }).applied, false);
  assert.equal(applyFrame(s, { type: 'frame', tick: 2, v: 1, ids: [1], xy: [5, 5] }).applied, true);
});

test('selection: first cell by default, follows its id, nearest remaining when removed', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, { type: 'frame', v: 1, ids: [10, 11, 12, 13, 14], xy: new Array(10).fill(0) });
  assert.equal(s.selectedId, 10);
  assert.equal(selectIndex(s, 3), true);
  assert.equal(s.selectedId, 13);
  assert.equal(selectIndex(s, 3), false);
  // cells before it removed: the selection follows the id to its new index
  applyFrame(s, { type: 'frame', v: 2, ids: [12, 13, 14, 15], xy: new Array(8).fill(0) });
  assert.equal(s.selectedId, 13);
  assert.equal(selectedIndex(s), 1);
  // the selected cell removed: its later neighbour takes its place
  applyFrame(s, { type: 'frame', v: 3, ids: [12, 14, 15], xy: new Array(6).fill(0) });
  assert.equal(s.selectedId, 14);
  // the newest cells removed, selected among them: the nearest remaining one
  selectIndex(s, 2);
  applyFrame(s, { type: 'frame', v: 4, ids: [12], xy: [0, 0] });
  assert.equal(s.selectedId, 12);
  // indexes clamp
  applyFrame(s, { type: 'frame', v: 5, ids: [12, 20, 21], xy: new Array(6).fill(0) });
  selectIndex(s, 99);
  assert.equal(s.selectedId, 21);
  selectIndex(s, -4);
  assert.equal(s.selectedId, 12);
  applyFrame(s, { type: 'frame', v: 6, ids: [], xy: [] });
  assert.equal(selectedIndex(s), -1);
  assert.equal(selectIndex(s, 0), false);
});

test('events: params, settled/woke, clients, pins; shown once by seq', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, { type: 'frame', v: 1, ids: [1, 2, 3], xy: new Array(6).fill(0) });
  let r = applyEvent(s, ev(1, 'params', { by: 'c2', params: { ...PARAMS, charge: 20 }, changed: ['charge'] }));
  assert.deepEqual(r, { show: true, params: true });
  assert.equal(s.params.charge, 20);
  assert.deepEqual(applyEvent(s, ev(1, 'params', { params: { charge: 30 } })), { show: false, params: false });
  assert.equal(s.params.charge, 20);
  applyEvent(s, ev(2, 'woke'));
  assert.equal(s.settled, false);
  applyEvent(s, ev(3, 'settled'));
  assert.equal(s.settled, true);
  applyEvent(s, ev(4, 'joined', { client: 'c9', clients: 3 }));
  assert.equal(s.clients, 3);
  applyEvent(s, ev(5, 'left', { client: 'c9', clients: 2 }));
  assert.equal(s.clients, 2);
  applyEvent(s, ev(6, 'pinned', { by: 'c1', id: 2, x: 1, y: 2 }));
  assert.ok(s.pinned.has(2));
  applyEvent(s, ev(7, 'unpinned', { by: 'c1', id: 2 }));
  assert.ok(!s.pinned.has(2));
  applyEvent(s, ev(8, 'pinned', { id: 3, x: 0, y: 0 }));
  applyEvent(s, ev(9, 'removed', { ids: [3] }));
  assert.ok(!s.pinned.has(3));
  applyEvent(s, ev(10, 'pinned', { id: 1, x: 0, y: 0 }));
  applyEvent(s, ev(11, 'cleared', { ids: [1, 2] }));
  assert.equal(s.pinned.size, 0);
  // unknown kinds and odd shapes are shown and change nothing
  assert.deepEqual(applyEvent(s, ev(12, 'teleported', { whatever: [1] })), { show: true, params: false });
  assert.doesNotThrow(() => applyEvent(s, { type: 'event' }));
  assert.doesNotThrow(() => applyEvent(s, { type: 'event', seq: 13, kind: 'params', params: 'nope' }));
  assert.equal(s.lastSeq, 13);
});

test('reconnect: replayed events already shown are skipped, a restarted server starts over', () => {
  const s = createState();
  let r = applyHello(s, hello({ events: [ev(1, 'added', { by: 'c1', ids: [1] }), ev(2, 'settled')] }));
  assert.deepEqual(r.events.map((e) => e.seq), [1, 2]);
  applyEvent(s, ev(3, 'woke'));
  // same server: the buffer has everything up to 4; only 4 is new
  r = applyHello(s, hello({ events: [ev(2, 'settled'), ev(3, 'woke'), ev(4, 'joined', { client: 'c8', clients: 2 })] }));
  assert.equal(r.restarted, false);
  assert.deepEqual(r.events.map((e) => e.seq), [4]);
  // replayed history does not override hello's own params/settled
  r = applyHello(s, hello({ settled: false, events: [ev(4, 'joined'), ev(5, 'params', { params: { ...PARAMS, charge: 99 } })] }));
  assert.equal(s.params.charge, 10);
  assert.equal(s.settled, false);
  assert.deepEqual(r.events.map((e) => e.seq), [5]);
  // a new server process: seqs start over
  r = applyHello(s, hello({ events: [ev(1, 'joined', { client: 'c1', clients: 1 })] }));
  assert.equal(r.restarted, true);
  assert.deepEqual(r.events.map((e) => e.seq), [1]);
  assert.equal(s.lastSeq, 1);
  // pins are rebuilt from the replayed history
  applyHello(s, hello({ events: [ev(1, 'joined'), ev(2, 'pinned', { id: 4, x: 0, y: 0 }), ev(3, 'pinned', { id: 5, x: 0, y: 0 }), ev(4, 'unpinned', { id: 5 })] }));
  assert.deepEqual([...s.pinned], [4]);
});

test('stats and odd hellos', () => {
  const s = createState();
  assert.doesNotThrow(() => applyHello(s, { type: 'hello' }));
  assert.doesNotThrow(() => applyHello(s, { type: 'hello', params: null, events: 'x', clients: 'many' }));
  assert.equal(cellCount(s), 0);
  applyStats(s, { type: 'stats', cells: 1000, clients: 3, tick: 5, settled: false, tickMs: 1.8, newField: 1 });
  assert.equal(s.clients, 3);
  assert.equal(s.settled, false);
  assert.equal(cellCount(s), 1000); // no frame yet: the stats' count
  applyFrame(s, { type: 'frame', v: 1, ids: [1], xy: [0, 0] });
  assert.equal(cellCount(s), 1);
});

test('hello.pinned comes first, then the replayed events in order', () => {
  const s = createState();
  applyHello(s, hello({ pinned: [5, 9, 'x', null], events: [ev(1, 'unpinned', { id: 9 }), ev(2, 'pinned', { id: 11, x: 0, y: 0 })] }));
  assert.deepEqual([...s.pinned].sort((a, b) => a - b), [5, 11]);
  assert.doesNotThrow(() => applyHello(s, hello({ pinned: 'all' })));
});

test('owners: runs from frames with ids, kept by frames without; replaced only when they change', () => {
  const s = createState();
  applyHello(s, hello());
  assert.deepEqual(s.owners, []);
  applyFrame(s, { type: 'frame', v: 1, ids: [1, 2, 3], xy: new Array(6).fill(0), owners: [['c1', 1, 2]] });
  assert.deepEqual(s.owners, [['c1', 1, 2]]);
  const own = ownerLookup(s);
  assert.equal(own(1), 'c1');
  assert.equal(own(3), null);
  const runs = s.owners;
  applyFrame(s, { type: 'frame', v: 1, xy: new Array(6).fill(1) });
  applyFrame(s, { type: 'frame', v: 2, ids: [1, 2, 3], xy: new Array(6).fill(0), owners: [['c1', 1, 2]] });
  assert.equal(s.owners, runs);
  applyFrame(s, { type: 'frame', v: 3, ids: [1, 2, 3, 4], xy: new Array(8).fill(0), owners: [['c1', 1, 2], ['c2', 4, 4]] });
  assert.notEqual(s.owners, runs);
  assert.equal(ownerLookup(s)(4), 'c2');
  // malformed owners never throw: nobody known
  assert.doesNotThrow(() => applyFrame(s, { type: 'frame', v: 4, ids: [1], xy: [0, 0], owners: 'x' }));
  assert.deepEqual(s.owners, []);
  // `added` events say nothing about owners: the runs do
  applyEvent(s, ev(1, 'added', { by: 'c7', ids: [1] }));
  assert.equal(ownerLookup(s)(1), null);
});

test('the ids array keeps its identity while the membership does not change', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, { type: 'frame', v: 1, ids: [1, 2], xy: [0, 0, 0, 0] });
  const ids = s.ids;
  applyFrame(s, { type: 'frame', v: 1, xy: [1, 1, 1, 1] });
  applyFrame(s, { type: 'frame', v: 2, ids: [1, 2], xy: [1, 1, 1, 1] });
  assert.equal(s.ids, ids);
  applyFrame(s, { type: 'frame', v: 3, ids: [1], xy: [1, 1] });
  assert.notEqual(s.ids, ids);
  assert.deepEqual(ids, [1, 2]);
});
