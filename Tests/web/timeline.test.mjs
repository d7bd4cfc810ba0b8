// node --test Tests/web/  — the timeline's model (Public/timeline.js): history answers and live
// events merged by seq, marks, settled spans, the track's geometry and the keys' steps
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addEvents, applyHistory, atOf, changeNear, changesAround, compactEvent, createTimeline, historyRequest, indexAt,
  markClass, markColumns, MARK_CLASSES, resetTimeline, serverNow, settledSpans, span, stepChange, xOf,
} from '../../Public/timeline.js';
import { describeEvent } from '../../Public/wording.js';

const T0 = 1763700000000;
const ev = (seq, kind, extra = {}) => ({ type: 'event', seq, kind, by: 'c1', tick: seq, at: T0 + 1000 * seq, ...extra });
const history = (events, extra = {}) => ({ type: 'history', from: T0, to: T0 + 100000, events, more: false, ...extra });
const seqs = (t) => t.events.map((e) => e.seq);

test('an event is kept small: bulky arrays as their length, the rest as it is', () => {
  const e = compactEvent(ev(3, 'added', { ids: [1, 2, 3], cells: [{ id: 1, label: 'a' }] }));
  assert.deepEqual(e, { seq: 3, kind: 'added', by: 'c1', tick: 3, at: T0 + 3000, n: 3 });
  const params = compactEvent(ev(4, 'params', { params: { charge: 5, theta: 0.9 }, changed: ['charge'] }));
  assert.deepEqual([params.changed, params.params], [['charge'], { charge: 5 }], 'of the whole set, what changed');
  assert.equal(describeEvent(params), 'c1 set charge to 5');
  assert.equal(compactEvent(ev(5, 'restored', { moment: T0, ids: [1], data: { cells: { id: [1] } } })).data, undefined);
  assert.equal(compactEvent({ seq: 5, kind: 'removed', n: 12, at: T0 }).n, 12, 'a history event keeps its n');
  // the wording reads both the same
  assert.equal(describeEvent(e), 'c1 added 3 cells');
  assert.equal(describeEvent({ kind: 'cleared', by: 'c3', n: 120 }), 'c3 cleared 120 cells');
});

test('history answers and live events merge by seq, once each, oldest first', () => {
  const t = createTimeline();
  assert.deepEqual(historyRequest(t), { type: 'history' }, 'the newest first');
  assert.equal(historyRequest(t), null, 'one request at a time');
  // live events heard while the answer was under way
  assert.ok(addEvents(t, [ev(9, 'added'), ev(10, 'removed')]));
  assert.ok(applyHistory(t, history([ev(6, 'added'), ev(7, 'settled'), ev(8, 'woke'), ev(9, 'added')], { more: true }), T0 + 99000));
  assert.deepEqual(seqs(t), [6, 7, 8, 9, 10]);
  assert.equal(t.more, true);
  assert.equal(t.offset, 1000, 'the server runs a second ahead');
  assert.equal(serverNow(t, T0 + 100000), T0 + 101000);
  assert.deepEqual(historyRequest(t), { type: 'history', before: 6 }, 'then further back');
  applyHistory(t, history([ev(3, 'added'), ev(4, 'cleared', { ids: [1, 2] })]), T0 + 99000);
  assert.deepEqual(seqs(t), [3, 4, 6, 7, 8, 9, 10]);
  assert.equal(t.more, false);
  assert.equal(historyRequest(t), null, 'all of it is here');
  // asked afresh (the timeline opened again): the newest batch says nothing of older ones
  assert.deepEqual(historyRequest(t, { fresh: true }), { type: 'history' });
  applyHistory(t, history([ev(10, 'removed'), ev(11, 'added')], { more: true }), T0 + 99000);
  assert.deepEqual(seqs(t), [3, 4, 6, 7, 8, 9, 10, 11]);
  assert.equal(t.more, false);
  // live events: out of order, repeated, or unusable
  addEvents(t, [ev(13, 'added'), ev(12, 'added'), ev(13, 'added'), { seq: 'x', kind: 'added' }, null]);
  assert.deepEqual(seqs(t).slice(-3), [11, 12, 13]);
  assert.equal(addEvents(t, [{ kind: 'added' }]), false);
  assert.equal(applyHistory(t, { type: 'moment' }, 0), false);
  resetTimeline(t);
  assert.deepEqual(seqs(t), []);
  assert.deepEqual(historyRequest(t), { type: 'history' });
});

test('past its size the oldest events go, and older ones are said to exist', () => {
  const t = createTimeline({ max: 3 });
  addEvents(t, [1, 2, 3, 4, 5].map((s) => ev(s, 'added')));
  assert.deepEqual(seqs(t), [3, 4, 5]);
  assert.equal(t.more, true);
});

test('the span runs from the oldest known moment to now', () => {
  const t = createTimeline();
  applyHistory(t, history([ev(5, 'added')], { from: T0 + 2000 }), T0 + 100000);
  assert.deepEqual(span(t, T0 + 100000), { start: T0 + 2000, end: T0 + 100000 });
  const bare = createTimeline(); // no history from the server (an older one): the events heard
  addEvents(bare, [ev(5, 'added')]);
  assert.equal(span(bare, T0 + 9000).start, T0 + 5000);
  assert.equal(span(createTimeline(), T0).start, T0 - 1000, 'never empty');
});

test('the changes around a moment, and the steps between changes', () => {
  const t = createTimeline();
  addEvents(t, [ev(1, 'added'), ev(2, 'settled'), ev(3, 'removed'), ev(4, 'joined'), ev(5, 'params'), ev(6, 'added'), ev(7, 'cleared')]);
  const at = T0 + 5500; // after seq 5
  const { before, after } = changesAround(t, at, { before: 2, after: 1 });
  assert.deepEqual(before.map((e) => e.seq), [3, 5], 'settled and joined are not changes');
  assert.deepEqual(after.map((e) => e.seq), [6]);
  assert.equal(indexAt(t.events, T0 + 5000), 4, 'an event at the very moment is in it');
  assert.equal(indexAt(t.events, T0), -1);
  assert.equal(stepChange(t, T0 + 5000, -1), T0 + 3000);
  assert.equal(stepChange(t, T0 + 5000, 1), T0 + 6000);
  assert.equal(stepChange(t, T0 + 1000, -1), null);
  assert.equal(stepChange(t, T0 + 7000, 1), null);
});

test('settled spans: from settled to the woke after it, open to the end while it rests', () => {
  const t = createTimeline();
  addEvents(t, [ev(2, 'woke'), ev(3, 'added'), ev(5, 'settled'), ev(8, 'woke'), ev(9, 'settled')]);
  const range = { start: T0, end: T0 + 20000 };
  assert.deepEqual(settledSpans(t, range), [
    { start: T0, end: T0 + 2000 }, // a woke first: it rested before
    { start: T0 + 5000, end: T0 + 8000 },
    { start: T0 + 9000, end: T0 + 20000 },
  ]);
  assert.deepEqual(settledSpans(createTimeline(), range), []);
  // clipped to the range
  assert.deepEqual(settledSpans(t, { start: T0 + 6000, end: T0 + 8500 }), [{ start: T0 + 6000, end: T0 + 8000 }]);
});

test('times and x on the track, both ways, clamped', () => {
  const range = { start: 1000, end: 2000 };
  assert.equal(xOf(1500, range, 200), 100);
  assert.equal(xOf(0, range, 200), 0);
  assert.equal(xOf(5000, range, 200), 200);
  assert.equal(atOf(100, range, 200), 1500);
  assert.equal(atOf(-5, range, 200), 1000);
  assert.equal(atOf(500, range, 200), 2000);
  assert.equal(atOf(atOf(37, range, 200) && 37, range, 200), 1185);
  assert.equal(xOf(5, { start: 3, end: 3 }, 10), 10, 'an empty span is all now');
});

test('marks per pixel column: the strongest change of each', () => {
  const t = createTimeline();
  addEvents(t, [ev(1, 'pinned'), ev(1.5 * 0 + 2, 'added'), ev(3, 'settled'), ev(10, 'params'), ev(11, 'removed', { undo: 2 })]);
  const range = { start: T0, end: T0 + 10000 };
  const cols = markColumns(t, range, 10);
  const name = (i) => (cols[i] === 255 ? null : MARK_CLASSES[cols[i]]);
  assert.equal(name(1), 'pin');
  assert.equal(name(2), 'add');
  assert.equal(name(3), null, 'settled is no mark');
  assert.equal(name(9), 'params', 'the end falls in the last column');
  assert.equal(markClass({ kind: 'removed', undo: 4 }), 'undo');
  assert.equal(markClass({ kind: 'restored' }), 'restore');
  assert.equal(markClass({ kind: 'frobbed' }), 'data');
  // strongest wins a shared column
  addEvents(t, [ev(12, 'restored')]);
  const wide = markColumns(t, { start: T0, end: T0 + 100000 }, 4);
  assert.equal(MARK_CLASSES[wide[0]], 'restore');
  assert.equal(markColumns(t, range, 0).length, 0);
});

test('the change under the pointer: the nearest within reach', () => {
  const t = createTimeline();
  addEvents(t, [ev(2, 'added'), ev(3, 'settled'), ev(6, 'removed')]);
  const range = { start: T0, end: T0 + 10000 }; // 100 px: 100 ms a px
  assert.equal(changeNear(t, 21, range, 100)?.seq, 2);
  assert.equal(changeNear(t, 30, range, 100), null, 'settled is not a change; nothing within 4 px');
  assert.equal(changeNear(t, 57, range, 100)?.seq, 6);
  assert.equal(changeNear(t, 61, range, 100)?.seq, 6);
});
