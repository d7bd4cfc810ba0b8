// node --test Tests/web/  — typed change events (Public/emitter.js) and the frame loop (Public/frames.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmitter } from '../../Public/emitter.js';
import { createFrames } from '../../Public/frames.js';

test('listeners hear their type, in the order they subscribed, with the payload', () => {
  const e = createEmitter(['a', 'b']);
  const heard = [];
  e.on('a', (p) => heard.push(['a1', p]));
  e.on('b', (p) => heard.push(['b', p]));
  e.on('a', (p) => heard.push(['a2', p]));
  e.emit('a', 1);
  e.emit('b');
  assert.deepEqual(heard, [['a1', 1], ['a2', 1], ['b', undefined]]);
  assert.throws(() => e.on('c', () => {}), /unknown change event: c/);
  assert.throws(() => e.emit('c'), /unknown change event: c/);
});

test('a listener that throws does not keep the others from hearing; its error is rethrown alone', (t) => {
  const later = [];
  t.mock.method(globalThis, 'queueMicrotask', (fn) => later.push(fn));
  const e = createEmitter(['a']);
  const heard = [];
  e.on('a', () => {
    throw new Error('listener bug');
  });
  e.on('a', () => heard.push('second'));
  e.emit('a');
  assert.deepEqual(heard, ['second']);
  assert.equal(later.length, 1);
  assert.throws(later[0], /listener bug/);
});

test('the frame loop runs once per wake, and on while its step says so', () => {
  const requested = [];
  const frames = createFrames({ request: (fn) => requested.push(fn) });
  const steps = [];
  let more = 2;
  frames.drive((t) => {
    steps.push(t);
    return more-- > 0;
  });
  frames.wake();
  frames.wake();
  assert.equal(requested.length, 1, 'one frame requested however often it is woken');
  requested.shift()(16);
  requested.shift()(32);
  requested.shift()(48);
  assert.deepEqual(steps, [16, 32, 48]);
  assert.equal(requested.length, 0, 'asleep once nothing moves');
  frames.wake();
  assert.equal(requested.length, 1);
});
