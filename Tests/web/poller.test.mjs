// node --test Tests/web/  — asking again and again only while someone looks (Public/poller.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPoller } from '../../Public/poller.js';

// Timers the test moves by hand, and a load() whose calls the test settles by hand.
function harness() {
  let now = 0;
  let next = 1;
  const pending = new Map(); // id -> {at, fn}
  const timers = {
    setTimeout(fn, ms) {
      const id = next++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(id) {
      pending.delete(id);
    },
  };
  const calls = []; // {resolve, reject} of each load() call
  const load = () => new Promise((resolve, reject) => calls.push({ resolve, reject }));
  const results = [];
  const settle = () => new Promise((r) => setImmediate(r)); // let promise callbacks run
  return {
    timers,
    load,
    calls,
    results,
    onResult: (r) => results.push(r),
    settle,
    timersPending: () => pending.size,
    async advance(ms) {
      now += ms;
      for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        pending.delete(id);
        t.fn();
      }
      await settle();
    },
  };
}

test('asks at once, then every interval after each answer, never two at a time', async () => {
  const h = harness();
  const p = createPoller(h.load, h.onResult, { interval: 3000, timers: h.timers });
  assert.equal(h.calls.length, 0);
  p.start();
  assert.equal(p.running, true);
  assert.equal(h.calls.length, 1);
  await h.advance(10000); // no answer yet: no second call, no timer
  assert.equal(h.calls.length, 1);
  assert.equal(h.timersPending(), 0);
  h.calls[0].resolve({ rooms: [] });
  await h.settle();
  assert.deepEqual(h.results, [{ ok: true, value: { rooms: [] } }]);
  await h.advance(2999);
  assert.equal(h.calls.length, 1);
  await h.advance(1);
  assert.equal(h.calls.length, 2);
  h.calls[1].reject(new Error('HTTP 503'));
  await h.settle();
  assert.equal(h.results[1].ok, false);
  assert.equal(h.results[1].error.message, 'HTTP 503');
  await h.advance(3000); // a failure is asked again too
  assert.equal(h.calls.length, 3);
  p.start(); // already running: nothing more
  assert.equal(h.calls.length, 3);
});

test('stopped: no more calls, no timers, and an answer still to come is dropped', async () => {
  const h = harness();
  const p = createPoller(h.load, h.onResult, { interval: 3000, timers: h.timers });
  p.start();
  h.calls[0].resolve(1);
  await h.settle();
  assert.equal(h.timersPending(), 1);
  p.stop();
  assert.equal(p.running, false);
  assert.equal(h.timersPending(), 0);
  await h.advance(60000);
  assert.equal(h.calls.length, 1);

  // stopped while a call is under way: its answer never arrives, and nothing is scheduled
  p.start();
  assert.equal(h.calls.length, 2);
  p.stop();
  h.calls[1].resolve(2);
  await h.settle();
  assert.deepEqual(h.results.map((r) => r.value), [1]);
  assert.equal(h.timersPending(), 0);

  // stopped and started again before the old call answers: only the new call counts
  p.start();
  p.stop();
  p.start();
  assert.equal(h.calls.length, 4);
  h.calls[2].resolve('old');
  await h.settle();
  assert.equal(h.timersPending(), 0);
  h.calls[3].resolve('new');
  await h.settle();
  assert.deepEqual(h.results.map((r) => r.value), [1, 'new']);
  assert.equal(h.timersPending(), 1);
  p.stop();
});

test('a load() that throws at once is a failed answer, asked again later', async () => {
  const h = harness();
  let n = 0;
  const p = createPoller(() => {
    n++;
    throw new TypeError('no fetch');
  }, h.onResult, { interval: 1000, timers: h.timers });
  p.start();
  await h.settle();
  assert.equal(h.results[0].ok, false);
  await h.advance(1000);
  assert.equal(n, 2);
  p.stop();
});
