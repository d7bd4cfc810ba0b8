// node --test Tests/web/  — rolling figures of Public/perf.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMean, createPerf, createRate } from '../../Public/perf.js';

test('a rate counts per second over its window', () => {
  const r = createRate(2000);
  assert.equal(r.rate(0), 0);
  for (let t = 0; t < 10000; t += 1000 / 60) r.add(t);
  assert.ok(Math.abs(r.rate(10000) - 60) <= 1, String(r.rate(10000)));
  // nothing for a while: it falls to zero
  assert.equal(r.rate(13000), 0);
  // amounts (bytes)
  const b = createRate(2000);
  for (let t = 0; t <= 4000; t += 50) b.add(t, 1000);
  assert.ok(Math.abs(b.rate(4000) - 20000) <= 1000, String(b.rate(4000)));
});

test('a young window divides by its age, not the whole window', () => {
  const r = createRate(2000);
  for (let t = 1000; t < 1500; t += 1000 / 60) r.add(t);
  assert.ok(Math.abs(r.rate(1500) - 60) <= 3, String(r.rate(1500)));
});

test('a mean over the window, null when empty, non-numbers ignored', () => {
  const m = createMean(1000);
  assert.equal(m.mean(0), null);
  m.add(0, 4);
  m.add(100, 6);
  m.add(200, NaN);
  assert.equal(m.mean(200), 5);
  m.add(1500, 10);
  assert.equal(m.mean(1500), 10);
  assert.equal(m.mean(5000), null);
  // many samples: the storage is compacted, figures stay right
  const big = createMean(100);
  for (let t = 0; t < 100000; t++) big.add(t, t % 2);
  assert.ok(Math.abs(big.mean(99999) - 0.5) < 0.02);
});

test("the page's figures: draws, frames, bytes, draw and decode time, the server's step time, cells", () => {
  let t = 0;
  const perf = createPerf(() => t);
  for (; t < 2000; t += 1000 / 60) perf.drew(2);
  for (let i = 0; i < 40; i++) {
    perf.frame();
    perf.received(1000);
  }
  const state = { stats: { tickMs: 1.5 }, ids: [1, 2, 3] };
  assert.equal(perf.read(state).decodeMs, null, 'no binary frame decoded (v1): no figure');
  perf.decoded(0.5);
  perf.decoded(0.25);
  const p = perf.read(state);
  assert.equal(p.decodeMs, 0.375);
  assert.ok(Math.abs(p.fps - 60) <= 1, String(p.fps));
  assert.equal(p.drawMs, 2);
  assert.equal(p.tickMs, 1.5);
  assert.equal(p.cells, 3);
  assert.ok(p.framesPerSecond > 0 && p.kbPerSecond > 0);
  assert.equal(perf.read({ stats: null, ids: [] }).tickMs, null);
});

test("a draw's split: each part a mean of its own, a part a draw did not time left alone", () => {
  let t = 0;
  const perf = createPerf(() => t);
  const state = { stats: null, ids: [] };
  perf.drew(3);
  assert.deepEqual(
    [perf.read(state).linksMs, perf.read(state).cellsMs, perf.read(state).putMs, perf.read(state).labelsMs],
    [null, null, null, null],
    'no split given: no figures',
  );
  t = 10;
  perf.drew(10, { linksMs: 4, cellsMs: 3, putMs: 1, labelsMs: 2, visible: 5 });
  t = 20;
  perf.drew(14, { linksMs: 6, cellsMs: 5, putMs: 1, labelsMs: 2 });
  t = 30;
  perf.drew(2, { linksMs: null, cellsMs: null, putMs: null, labelsMs: 1 }); // cells as arcs
  const p = perf.read(state);
  assert.equal(p.linksMs, 5);
  assert.equal(p.cellsMs, 4);
  assert.equal(p.putMs, 1);
  assert.equal(p.labelsMs, 5 / 3);
  assert.equal(p.drawMs, (3 + 10 + 14 + 2) / 4);
  t = 3000;
  assert.equal(perf.read(state).linksMs, null, 'the window passed: no figure');
});
