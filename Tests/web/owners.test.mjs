// node --test Tests/web/  — who added which cell: Public/owners.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeOwner, normalizeRuns, ownerOf, ownerSlots, sameRuns } from '../../Public/owners.js';

test('runs are validated and sorted; anything but an array is no runs', () => {
  assert.deepEqual(normalizeRuns(undefined), []);
  assert.deepEqual(normalizeRuns('c1'), []);
  assert.deepEqual(normalizeRuns([]), []);
  assert.deepEqual(
    normalizeRuns([['c2', 41, 100], ['c1', 1, 40], ['bad'], [3, 1, 2], ['c3', 9, 5], ['c4', 'x', 3], null, ['c5', 200, 200, 'extra']]),
    [['c1', 1, 40], ['c2', 41, 100], ['c5', 200, 200]],
  );
});

test('an id is owned by the run that covers it, else by nobody', () => {
  const runs = normalizeRuns([['c1', 1, 40], ['c2', 41, 100], ['c1', 150, 160]]);
  assert.equal(ownerOf(runs, 1), 'c1');
  assert.equal(ownerOf(runs, 40), 'c1');
  assert.equal(ownerOf(runs, 41), 'c2');
  assert.equal(ownerOf(runs, 100), 'c2');
  assert.equal(ownerOf(runs, 101), null);
  assert.equal(ownerOf(runs, 155), 'c1');
  assert.equal(ownerOf(runs, 0), null);
  assert.equal(ownerOf(runs, 1e9), null);
  assert.equal(ownerOf([], 5), null);
});

test('runs compare by value', () => {
  assert.ok(sameRuns([], []));
  assert.ok(sameRuns([['c1', 1, 2]], [['c1', 1, 2]]));
  assert.ok(!sameRuns([['c1', 1, 2]], [['c1', 1, 3]]));
  assert.ok(!sameRuns([['c1', 1, 2]], []));
});

test('colour slots: 0 for no owner, one per client in order of appearance, with counts', () => {
  const runs = normalizeRuns([['c3', 1, 3], ['c1', 4, 5], ['c3', 8, 9]]);
  const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const r = ownerSlots(ids, (id) => ownerOf(runs, id));
  assert.deepEqual([...r.slots], [1, 1, 1, 2, 2, 0, 0, 1, 1]);
  assert.deepEqual(r.owners, [null, 'c3', 'c1']);
  assert.deepEqual(r.counts, [2, 5, 2]);
  const empty = ownerSlots([], () => 'c1');
  assert.equal(empty.slots.length, 0);
  assert.deepEqual(empty.owners, [null]);
  // 50k cells in a few ms
  const big = Array.from({ length: 50000 }, (_, i) => i + 1);
  const many = normalizeRuns(Array.from({ length: 500 }, (_, k) => [`c${k}`, 100 * k + 1, 100 * k + 100]));
  const t0 = performance.now();
  const b = ownerSlots(big, (id) => ownerOf(many, id));
  assert.ok(performance.now() - t0 < 200);
  assert.equal(b.owners.length, 501);
});

test('tooltips name the owner', () => {
  assert.equal(describeOwner('c3', 'c7'), 'added by c3');
  assert.equal(describeOwner('c7', 'c7'), 'added by you');
  assert.equal(describeOwner(null, 'c7'), 'restored');
});
