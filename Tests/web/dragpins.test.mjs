// node --test Tests/web/  — Public/dragpins.js (what a drag sends: drag pins end with the tab)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dragPin, dropMessage } from '../../Public/dragpins.js';

test('a free cell dragged is held by this connection, and let go at the drop', () => {
  assert.deepEqual(dragPin(7, 1.5, -2, false), { type: 'pin', id: 7, x: 1.5, y: -2, drag: true });
  assert.deepEqual(dropMessage(7, 1.5, -2, { wasPinned: false, cancelled: false }), { type: 'unpin', id: 7 });
});

test('a cell pinned before the drag stays pinned for good, where it is dropped', () => {
  assert.deepEqual(dragPin(7, 3, 4, true), { type: 'pin', id: 7, x: 3, y: 4 });
  assert.deepEqual(dropMessage(7, 3, 4, { wasPinned: true, cancelled: false }), { type: 'pin', id: 7, x: 3, y: 4 });
});

test('a cancelled drag lets the cell go', () => {
  assert.deepEqual(dropMessage(7, 3, 4, { wasPinned: true, cancelled: true }), { type: 'unpin', id: 7 });
});
