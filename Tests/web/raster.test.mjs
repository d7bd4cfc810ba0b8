// node --test Tests/web/  — disc masks and stamping of Public/raster.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stampCells } from '../../Public/cellstamp.js';
import { PHASES, createMaskCache, discMask, flatMasks, packRGB, quantizeRadius, stamp } from '../../Public/raster.js';

const BG = packRGB(255, 255, 255);
const RED = [200, 20, 10];
const palette = { packed: Int32Array.of(packRGB(...RED)), r: Uint8Array.of(RED[0]), g: Uint8Array.of(RED[1]), b: Uint8Array.of(RED[2]) };
const channels = (v) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];

test('packRGB is the ImageData byte order read little-endian (RGBA bytes)', () => {
  const px = new Int32Array(1);
  px[0] = packRGB(1, 2, 3);
  assert.deepEqual([...new Uint8Array(px.buffer)], [1, 2, 3, 255]);
});

test('a mask covers the area of its disc, at every radius and phase', () => {
  for (const r of [0.6, 1, 1.7, 3, 4.5, 10, 30]) {
    for (const [fx, fy] of [[0.5, 0.5], [0.125, 0.875], [0.9, 0.1]]) {
      const m = discMask(r, fx, fy);
      const want = Math.PI * r * r;
      // faint edges (< 3%) are dropped, so small discs lose a little
      assert.ok(Math.abs(m.area - want) <= Math.max(0.25, 0.06 * want), `r ${r}: area ${m.area} vs ${want}`);
      assert.ok(m.maxDx - m.minDx <= 2 * r + 3 && m.maxDy - m.minDy <= 2 * r + 3, `r ${r}: extent`);
    }
  }
});

test('mask rows: the interior span is full, edges partial, a centred disc symmetric', () => {
  const m = discMask(5, 0.5, 0.5);
  const cover = new Map();
  let k = 0;
  const d = m.data;
  while (k < d.length) {
    const [dy, xs, xe, ne] = [d[k], d[k + 1], d[k + 2], d[k + 3]];
    k += 4;
    for (let x = xs; x < xe; x++) cover.set(`${x},${dy}`, 256);
    for (let e = 0; e < ne; e++, k += 2) {
      assert.ok(d[k + 1] > 0 && d[k + 1] < 256);
      assert.ok(d[k] < xs || d[k] >= xe || xs === xe, 'an edge pixel is not in the span');
      cover.set(`${d[k]},${dy}`, d[k + 1]);
    }
  }
  assert.equal(cover.get('0,0'), 256);
  for (const [key, a] of cover) {
    const [x, y] = key.split(',').map(Number);
    // centre at (0.5, 0.5): pixel x mirrors to -x, y to -y
    assert.equal(cover.get(`${-x},${y}`), a, `mirror of ${key}`);
    assert.equal(cover.get(`${x},${-y}`), a, `mirror of ${key}`);
  }
});

test('stamping blends edges over what is there and fills the interior', () => {
  const w = 20;
  const h = 20;
  const buf = new Int32Array(w * h).fill(BG);
  const m = discMask(4, 0.5, 0.5);
  stamp(buf, w, h, 10, 10, m, palette.packed[0]);
  assert.deepEqual(channels(buf[10 * w + 10]), [...RED, 255]);
  assert.deepEqual(channels(buf[0]), [255, 255, 255, 255]);
  // an edge pixel lies between the two colours, alpha stays opaque
  const edge = channels(buf[10 * w + 14]);
  assert.ok(edge[0] < 255 && edge[0] > RED[0] && edge[1] < 255 && edge[3] === 255, String(edge));
});

test('stamping at and past the edges never writes outside the buffer', () => {
  const w = 16;
  const h = 12;
  const guard = 64;
  const all = new Int32Array(w * h + 2 * guard).fill(7);
  const buf = all.subarray(guard, guard + w * h).fill(BG);
  const m = discMask(6, 0.3, 0.7);
  for (const [x, y] of [[0, 0], [-3, 5], [15, 11], [20, -4], [8, 13], [-50, -50]]) stamp(buf, w, h, x, y, m, palette.packed[0]);
  for (let i = 0; i < guard; i++) {
    assert.equal(all[i], 7);
    assert.equal(all[all.length - 1 - i], 7);
  }
  assert.deepEqual(channels(buf[0]), [...RED, 255]);
});

test('stampCells maps world to pixels, culls what is off the buffer, uses the colour slots', () => {
  const w = 40;
  const h = 30;
  const buf = new Int32Array(w * h).fill(BG);
  const cache = createMaskCache();
  const xy = [10, 10, 1000, 5, -1000, 0, NaN, 3, 5, 3];
  const n = stampCells({ buf, w, h }, { xy, count: 5, ox: 0, oy: 0, k: 2, radius: 3, slots: null, palette, cache });
  assert.equal(n, 2);
  assert.deepEqual(channels(buf[20 * w + 20]), [...RED, 255]);
  assert.deepEqual(channels(buf[6 * w + 10]), [...RED, 255]);
  assert.deepEqual(channels(buf[29 * w + 39]), [255, 255, 255, 255]);
});

test('radii are quantized finer when small; the cache keeps a bounded number of radii', () => {
  assert.equal(quantizeRadius(1.03), 1);
  assert.equal(quantizeRadius(1.04), 1.0625);
  assert.equal(quantizeRadius(20.1), 20);
  assert.ok(quantizeRadius(0.001) > 0);
  let prev = 0;
  for (let r = 0.1; r < 60; r += 0.05) {
    const q = quantizeRadius(r);
    assert.ok(q >= prev && Math.abs(q - r) <= Math.max(0.0625, r * 0.02), `r ${r} -> ${q}`);
    prev = q;
  }
  const cache = createMaskCache({ maxRadii: 3 });
  for (const r of [1, 2, 3, 4, 5]) {
    const set = cache.masks(r);
    assert.equal(set.length, PHASES * PHASES);
    assert.ok(cache.mask(set, r, 5).data.length > 0);
  }
  assert.equal(cache.size, 3);
});

test('small discs (flattened masks, coverage in quarters) draw what the row masks draw, within an eighth', () => {
  const w = 64;
  const h = 48;
  const colors = [packRGB(200, 20, 10), packRGB(10, 120, 240), packRGB(30, 160, 60)];
  const pal = { packed: Int32Array.from(colors) };
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const radius of [0.6, 1, 1.6, 2.5, 3.9]) {
    const count = 300;
    // some wholly inside, some across the border, some off it
    const xy = Array.from({ length: 2 * count }, (_, i) => (rnd() * 1.2 - 0.1) * (i % 2 ? h : w));
    const slots = Uint16Array.from({ length: count }, (_, i) => i % 3);
    const fast = new Int32Array(w * h).fill(BG);
    const cache = createMaskCache();
    const drawn = stampCells({ buf: fast, w, h }, { xy, count, ox: 0, oy: 0, k: 1, radius, slots, palette: pal, cache });
    // the reference: each cell stamped by rows, in order
    const ref = new Int32Array(w * h).fill(BG);
    const rq = quantizeRadius(radius);
    let visible = 0;
    for (let i = 0; i < count; i++) {
      const [sx, sy] = [xy[2 * i], xy[2 * i + 1]];
      if (!(sx > -rq - 1 && sx < w + rq + 1 && sy > -rq - 1 && sy < h + rq + 1)) continue;
      visible++;
      const [ix, iy] = [Math.floor(sx), Math.floor(sy)];
      const m = discMask(rq, (Math.floor((sx - ix) * PHASES) + 0.5) / PHASES, (Math.floor((sy - iy) * PHASES) + 0.5) / PHASES);
      stamp(ref, w, h, ix, iy, m, colors[i % 3]);
    }
    assert.equal(drawn, visible, `r ${radius}`);
    let worst = 0;
    let sum = 0;
    for (let p = 0; p < w * h; p++) {
      const [a, b] = [channels(fast[p]), channels(ref[p])];
      assert.equal(a[3], 255, 'opaque');
      for (let c = 0; c < 3; c++) {
        worst = Math.max(worst, Math.abs(a[c] - b[c]));
        sum += Math.abs(a[c] - b[c]);
      }
    }
    // a pixel's coverage is off by at most 1/8 (a few overlapping: a little more); full
    // pixels and the background are exact, so over this crowded buffer the mean is a few steps
    assert.ok(worst <= 64, `r ${radius}: a channel differs by ${worst}`);
    assert.ok(sum / (3 * w * h) <= 5, `r ${radius}: mean difference ${sum / (3 * w * h)}`);
  }
});

test('flattened masks follow the buffer width', () => {
  const cache = createMaskCache();
  const a = cache.flat(1.5, 100);
  assert.equal(cache.flat(1.5, 100), a, 'kept while the width is the same');
  const b = cache.flat(1.5, 200);
  assert.notEqual(b, a);
  assert.equal(b.starts.length, PHASES * PHASES);
  // phase 0's first full pixel offset is a row offset of the new width
  const j = b.starts[0];
  const offsets = [...b.table.subarray(j + 2, j + 2 + b.table[j])];
  assert.ok(offsets.every((o) => Math.abs(o) < 3 * 200), String(offsets));
  assert.deepEqual(flatMasks([discMask(0.5, 0.5, 0.5)], 10).starts, Int32Array.of(0));
});
