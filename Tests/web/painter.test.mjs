// node --test Tests/web/  — the canvas follows the state (Public/painter.js): while moments of
// the past follow each other the view holds still (renderer.hold), and fits once the
// timeline's handle rests or the page goes live
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createPainter } from '../../Public/painter.js';
import { createState, setMoment } from '../../Public/state.js';

function fakes() {
  const calls = [];
  const renderer = {
    retarget: () => calls.push('retarget'),
    invalidate: () => calls.push('invalidate'),
    hold: (on) => calls.push(`hold ${on}`),
    freeze: () => {},
    themeChanged: () => {},
  };
  const frames = { wake: () => {}, drive: () => {} };
  return { calls, renderer, frames };
}

const moment = (at) => ({ at, ids: [], index: new Map(), xy: new Float64Array(0), params: {}, pinned: new Set() });

test('moments hold the view; it fits when the handle rests, and at once going live', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const state = createState();
    const { calls, renderer, frames } = fakes();
    createPainter({ state, frames, interp: {}, scene: {}, renderer, strip: {}, perf: {} });
    setMoment(state, moment(1));
    assert.deepEqual(calls, ['hold true', 'invalidate'], 'the past: held (it fits at once only when cells leave the view)');
    calls.length = 0;
    mock.timers.tick(200);
    setMoment(state, moment(2));
    mock.timers.tick(200);
    assert.deepEqual(calls, ['hold true', 'invalidate'], 'another moment within 250 ms: still held');
    calls.length = 0;
    mock.timers.tick(60);
    assert.deepEqual(calls, ['hold false'], 'the handle rests: the view fits the moment');
    calls.length = 0;
    setMoment(state, moment(3));
    setMoment(state, null);
    assert.deepEqual(calls, ['hold true', 'invalidate', 'hold false', 'invalidate'], 'live: the view fits the room at once');
    calls.length = 0;
    mock.timers.tick(1000);
    assert.deepEqual(calls, [], 'no rest after going live');
  } finally {
    mock.timers.reset();
  }
});
