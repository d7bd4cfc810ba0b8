// node --test Tests/web/  — frame interpolation of Public/interpolate.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInterpolator, maxDelta } from '../../Public/interpolate.js';

const near = (a, b, eps = 1e-6) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

// frames of one cell moving along x by 10 per frame, arriving every `dt` ms from t0
function feed(it, ids, { from = 0, frames = 10, dt = 50, t0 = 0, x0 = 0 } = {}) {
  for (let f = 0; f < frames; f++) it.push(t0 + from + f * dt, ids, [x0 + 10 * f, 0]);
  return t0 + from + (frames - 1) * dt;
}

test('the delay follows two arrival intervals, clamped', () => {
  const it = createInterpolator();
  feed(it, [1], { dt: 50 });
  near(it.interval, 50);
  near(it.delay, 100);
  const fast = createInterpolator({ minDelay: 20 });
  feed(fast, [1], { dt: 5 });
  near(fast.delay, 20);
  const slow = createInterpolator({ maxDelay: 400 });
  feed(slow, [1], { dt: 1000 });
  near(slow.delay, 400);
});

test('20 Hz frames move at display rate: every 60 Hz sample lies between frames, evenly', () => {
  const it = createInterpolator();
  const ids = [1];
  // frames arrive while sampling: a steady 20 Hz stream
  let pushed = 0;
  const xs = [];
  for (let now = 0; now <= 2000; now += 1000 / 60) {
    while (pushed * 50 <= now) {
      it.push(pushed * 50, ids, [10 * pushed, 0]);
      pushed++;
    }
    const s = it.sample(now);
    xs.push(s.xy[0]);
  }
  // after the start, the drawn x advances every display frame by about 10 per 50 ms
  const tail = xs.slice(30);
  const steps = tail.slice(1).map((x, i) => x - tail[i]);
  for (const d of steps) assert.ok(d > 10 / 3 - 0.6 && d < 10 / 3 + 0.6, `step ${d}`);
  // and lags the newest frame by about the delay (two intervals: 20 units)
  const newest = 10 * (pushed - 1);
  assert.ok(newest - xs[xs.length - 1] > 10 && newest - xs[xs.length - 1] < 30);
});

test('samples interpolate between the frames around now - delay', () => {
  const it = createInterpolator();
  const ids = [1, 2];
  it.push(0, ids, [0, 0, 100, 100]);
  it.push(50, ids, [10, 20, 100, 0]);
  it.push(100, ids, [20, 40, 100, -100]);
  // delay 100: at 125 the clock is at 25, halfway between the first two
  const s = it.sample(125);
  assert.equal(s.count, 2);
  near(s.xy[0], 5);
  near(s.xy[1], 10);
  near(s.xy[3], 50);
  assert.equal(s.moving, true);
});

test('never extrapolates: past the newest frame the newest is shown, and motion stops', () => {
  const it = createInterpolator();
  const ids = [1];
  const last = feed(it, ids, { frames: 5 });
  let s = it.sample(last + 5000);
  near(s.xy[0], 40);
  assert.equal(s.moving, false);
  s = it.sample(last + 6000);
  near(s.xy[0], 40);
  assert.equal(s.moving, false);
});

test('a single frame (a settled layout) is shown as it is', () => {
  const it = createInterpolator();
  it.push(1000, [7, 8], [1, 2, 3, 4]);
  const s = it.sample(1000);
  assert.deepEqual([...s.xy.subarray(0, 4)], [1, 2, 3, 4]);
  assert.deepEqual(s.ids, [7, 8]);
  assert.equal(s.moving, false);
  assert.equal(createInterpolator().sample(0).count, 0);
});

test('a membership change is not interpolated: the newer frame is shown', () => {
  const it = createInterpolator();
  const a = [1, 2];
  const b = [1, 2, 3];
  it.push(0, a, [0, 0, 0, 0]);
  it.push(50, a, [10, 0, 10, 0]);
  it.push(100, b, [20, 0, 20, 0, 5, 5]);
  it.push(150, b, [30, 0, 30, 0, 6, 6]);
  let s = it.sample(175); // clock 75: between the last frame of `a` and the first of `b`
  assert.equal(s.ids, b);
  assert.equal(s.count, 3);
  near(s.xy[0], 20);
  s = it.sample(225); // clock 125: inside `b`, interpolated
  near(s.xy[0], 25);
  near(s.xy[4], 5.5);
  // same ids content but a new array (a new membership version): also snapped
  const it2 = createInterpolator();
  it2.push(0, [1], [0, 0]);
  it2.push(50, [1], [10, 0]);
  it2.push(100, [1], [20, 0]);
  near(it2.sample(125).xy[0], 10);
});

test('after a pause (settled) motion resumes from the last frame at normal speed', () => {
  const it = createInterpolator();
  const ids = [1];
  const last = feed(it, ids, { frames: 5 }); // x up to 40 at t=200
  near(it.sample(last + 500).xy[0], 40);
  // ten seconds later the layout wakes
  const t = 10000;
  it.push(t, ids, [50, 0]);
  it.push(t + 50, ids, [60, 0]);
  // just after: still at (or barely past) the old frame, no jump
  assert.ok(Math.abs(it.sample(t + 10).xy[0] - 40) <= 1);
  // a frame interval later it is moving at 10 per 50 ms, not crawling over ten seconds
  const s1 = it.sample(t + 110).xy[0];
  const s2 = it.sample(t + 135).xy[0];
  assert.ok(s2 - s1 > 3 && s2 - s1 < 7, `${s1} -> ${s2}`);
});

test('the playback clock never runs backward when the delay grows', () => {
  const it = createInterpolator();
  const ids = [1];
  let x = 0;
  let t = 0;
  let prev = -Infinity;
  for (let f = 0; f < 60; f++) {
    const dt = f < 30 ? 20 : 150; // frames slow down: the delay grows
    t += dt;
    it.push(t, ids, [x, 0]);
    x += 10;
    for (let k = 0; k < 3; k++) {
      const s = it.sample(t + (k * dt) / 3);
      assert.ok(s.xy[0] >= prev - 1e-9, `went back from ${prev} to ${s.xy[0]}`);
      prev = s.xy[0];
    }
  }
});

test('old frames are dropped', () => {
  const it = createInterpolator();
  const last = feed(it, [1], { frames: 50 });
  it.sample(last);
  assert.ok(it.held <= 4, `${it.held} frames held`);
});

test('maxDelta: the largest change between two position arrays', () => {
  assert.equal(maxDelta([0, 0, 1, 1], [0, 0, 1, 1], 4), 0);
  assert.equal(maxDelta([0, 0, 1, 1], [0.5, 0, 1, -2], 4), 3);
  assert.equal(maxDelta([0, 0, 1, 1], [0, 0, 1, 9], 2), 0);
  assert.equal(maxDelta([0, NaN], [0, 1], 2), Infinity);
  assert.equal(maxDelta([NaN, 0], [1, 5], 2), Infinity);
});
