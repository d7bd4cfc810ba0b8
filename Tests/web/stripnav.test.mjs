// node --test Tests/web/  — keyboard navigation of the page-dot strip (Public/stripnav.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyTarget } from '../../Public/stripnav.js';

test('arrows move by one dot and stop at the ends', () => {
  const at = (selected, key) => keyTarget(key, { selected, count: 40, page: 12 });
  assert.equal(at(5, 'ArrowRight'), 6);
  assert.equal(at(5, 'ArrowUp'), 6);
  assert.equal(at(5, 'ArrowLeft'), 4);
  assert.equal(at(5, 'ArrowDown'), 4);
  assert.equal(at(0, 'ArrowLeft'), 0);
  assert.equal(at(39, 'ArrowRight'), 39);
});

test('PageUp and PageDown move by the window shown', () => {
  assert.equal(keyTarget('PageUp', { selected: 5, count: 100000, page: 37 }), 42);
  assert.equal(keyTarget('PageDown', { selected: 50, count: 100000, page: 37 }), 13);
  assert.equal(keyTarget('PageDown', { selected: 5, count: 100000, page: 37 }), 0);
  assert.equal(keyTarget('PageUp', { selected: 99990, count: 100000, page: 37 }), 99999);
  assert.equal(keyTarget('PageUp', { selected: 3, count: 10, page: 0 }), 4, 'a window is at least one dot');
});

test('Home and End go to the ends; other keys are not the strip\'s', () => {
  assert.equal(keyTarget('Home', { selected: 7, count: 9, page: 9 }), 0);
  assert.equal(keyTarget('End', { selected: 7, count: 9, page: 9 }), 8);
  assert.equal(keyTarget('a', { selected: 7, count: 9, page: 9 }), null);
  assert.equal(keyTarget('Home', { selected: -1, count: 0, page: 9 }), null);
});

test('with nothing selected, keys start from the first cell', () => {
  assert.equal(keyTarget('ArrowRight', { selected: -1, count: 5, page: 5 }), 1);
  assert.equal(keyTarget('End', { selected: -1, count: 5, page: 5 }), 4);
});
