// node --test Tests/web/  — the links' layer kept between draws (Public/linklayer.js): used
// again only while every cell and the origin are within half a pixel of where it was drawn
// and nothing else it depends on changed; and then it is the picture a new draw would give,
// to within a pixel
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLinkLayer, TOLERANCE } from '../../Public/linklayer.js';
import { drawLinks } from '../../Public/linkdraw.js';
import { packRGB } from '../../Public/raster.js';

const BG = packRGB(250, 250, 250);
const LINK = packRGB(100, 116, 139);

function seeded(seed) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff);
}

function scene(n, w, h, rnd) {
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) [xy[2 * i], xy[2 * i + 1]] = [rnd() * w, rnd() * h];
  const pairs = [];
  for (let i = 0; i + 1 < n; i++) pairs.push(i, (i + 1 + Math.floor(rnd() * 5)) % n);
  return { xy, count: n, pairs: Int32Array.from(pairs) };
}

test('the layer is used again only while nothing moved half a pixel and nothing else changed', () => {
  const layer = createLinkLayer();
  const [w, h] = [40, 30];
  const buf = new Int32Array(w * h).fill(BG);
  const xy = Float64Array.of(5, 5, 30, 20, 10, 25);
  const pairs = Int32Array.of(0, 1, 1, 2);
  const key = { pairs, w, h, link: LINK, bg: BG };
  const view = { xy, count: 3, ox: 2, oy: 1, k: 1 };
  assert.equal(layer.restore(buf, key, view), false, 'nothing kept yet');
  drawLinks({ buf, w, h }, pairs, xy, 2, 1, 1, LINK);
  const drawn = buf.slice();
  layer.keep(buf, key, view);
  buf.fill(123); // the cells stamped over it, say
  assert.equal(layer.restore(buf, { ...key }, view), true);
  assert.deepEqual(buf, drawn, 'the links as drawn, copied back');

  const near = TOLERANCE * 0.9;
  const moved = (i, d) => {
    const v = Float64Array.from(xy);
    v[i] += d;
    return { ...view, xy: v };
  };
  assert.equal(layer.restore(buf, key, moved(3, near)), true, 'a cell moved under half a pixel');
  assert.equal(layer.restore(buf, key, moved(3, TOLERANCE)), false, 'half a pixel');
  assert.equal(layer.restore(buf, key, moved(4, -TOLERANCE)), false, 'half a pixel the other way');
  assert.equal(layer.restore(buf, key, moved(0, NaN)), false, 'a position not a number');
  assert.equal(layer.restore(buf, key, { ...view, k: 1.1 }), false, 'zoomed: the cells moved');
  assert.equal(layer.restore(buf, key, { ...view, ox: 2 + TOLERANCE }), false, 'the origin moved');
  assert.equal(layer.restore(buf, key, { ...view, count: 2 }), false, 'other cells');
  assert.equal(layer.restore(buf, { ...key, pairs: pairs.slice() }, view), false, 'other links');
  assert.equal(layer.restore(buf, { ...key, link: BG }, view), false, 'another colour');
  assert.equal(layer.restore(buf, { ...key, extra: 1 }, view), false, 'a key with another field');
  assert.equal(layer.restore(new Int32Array(w * h), key, view), false, 'another buffer');
  // the drift is counted from where the layer was drawn, not from the last draw
  const v = Float64Array.from(xy);
  for (let step = 0; step < 5; step++) {
    v[2] += near / 4;
    assert.equal(layer.restore(buf, key, { ...view, xy: v }), step < 4, `after ${step + 1} small moves`);
  }
  layer.clear();
  assert.equal(layer.restore(buf, key, view), false, 'cleared');
});

test('a layer used again is the picture a new draw gives, to within a pixel', () => {
  const rnd = seeded(11);
  const [w, h] = [160, 120];
  const s = scene(300, w, h, rnd);
  const layer = createLinkLayer();
  const buf = new Int32Array(w * h).fill(BG);
  const key = { pairs: s.pairs, w, h };
  drawLinks({ buf, w, h }, s.pairs, s.xy, 0, 0, 1, LINK);
  layer.keep(buf, key, { ...s, ox: 0, oy: 0, k: 1 });
  // every cell trembles by less than half a pixel
  const xy = s.xy.map((v) => v + (rnd() - 0.5) * 0.98 * TOLERANCE);
  const kept = new Int32Array(w * h);
  assert.equal(layer.restore(kept, key, { ...s, xy, ox: 0, oy: 0, k: 1 }), false, 'another buffer');
  assert.equal(layer.restore(buf, key, { ...s, xy, ox: 0, oy: 0, k: 1 }), true);
  const fresh = new Int32Array(w * h).fill(BG);
  drawLinks({ buf: fresh, w, h }, s.pairs, xy, 0, 0, 1, LINK);
  // each pixel a new draw darkens has a darkened pixel of the kept layer within one pixel
  const dark = (b, x, y) => x >= 0 && y >= 0 && x < w && y < h && b[y * w + x] !== BG;
  let lit = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!dark(fresh, x, y)) continue;
      lit++;
      let near = false;
      for (let dy = -1; dy <= 1 && !near; dy++) for (let dx = -1; dx <= 1 && !near; dx++) near = dark(buf, x + dx, y + dy);
      assert.ok(near, `pixel ${x},${y}`);
    }
  }
  assert.ok(lit > 1000, `${lit} pixels drawn`);
});
