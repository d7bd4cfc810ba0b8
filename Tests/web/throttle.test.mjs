// node --test Tests/web/  — Public/throttle.js (message throttling while dragging)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { throttle } from '../../Public/throttle.js';

function fakeClock() {
  let t = 0;
  const timers = [];
  return {
    now: () => t,
    setTimer: (fn, ms) => {
      const h = { fn, at: t + ms };
      timers.push(h);
      return h;
    },
    clearTimer: (h) => {
      const i = timers.indexOf(h);
      if (i >= 0) timers.splice(i, 1);
    },
    advance(ms) {
      const end = t + ms;
      for (;;) {
        const due = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.splice(timers.indexOf(due), 1);
        t = Math.max(t, due.at);
        due.fn();
      }
      t = end;
    },
  };
}

test('at most one call per interval, the first at once, the latest at the end', () => {
  const clock = fakeClock();
  const calls = [];
  const th = throttle((v) => calls.push([clock.now(), v]), 50, clock);
  th.call(1);
  assert.deepEqual(calls, [[0, 1]]);
  for (let i = 2; i <= 10; i++) {
    clock.advance(5);
    th.call(i);
  }
  assert.equal(calls.length, 1);
  clock.advance(10);
  assert.deepEqual(calls, [[0, 1], [50, 10]]);
  // a drag of 1 s at 200 input events/s sends about 20 messages
  for (let i = 0; i < 200; i++) {
    clock.advance(5);
    th.call(i);
  }
  clock.advance(100);
  assert.ok(calls.length >= 20 && calls.length <= 23, `${calls.length} calls`);
  assert.equal(calls.at(-1)[1], 199); // the final value always goes out
});

test('flush sends the final value now and drops the held one', () => {
  const clock = fakeClock();
  const calls = [];
  const th = throttle((v) => calls.push(v), 50, clock);
  th.call('a');
  clock.advance(10);
  th.call('b');
  th.flush('c');
  clock.advance(100);
  assert.deepEqual(calls, ['a', 'c']);
  th.call('d'); // the interval restarts from the flush
  clock.advance(100);
  assert.deepEqual(calls, ['a', 'c', 'd']);
});
