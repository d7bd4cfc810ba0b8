// node --test Tests/web/  — the links drawn into the pixel buffer (Public/linkdraw.js): level
// of detail, clipping, the tiles dense cells cover (Public/cellcover.js), the links stroked
// at deep zoom; and that skipping covered links leaves the picture as it was
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLinkIndex, drawLinks, strokeLinks } from '../../Public/linkdraw.js';
import { applyDataEvent, applyDataMessage, createCellData } from '../../Public/celldata.js';
import { createCellCover, TILE_SHIFT } from '../../Public/cellcover.js';
import { stampCells } from '../../Public/cellstamp.js';
import { createMaskCache, packRGB } from '../../Public/raster.js';
import { paletteOf } from '../../Public/palette.js';

const BG = packRGB(250, 250, 250);
const LINK = packRGB(100, 116, 139);
const TILE = 1 << TILE_SHIFT;

function canvas(w, h) {
  return { buf: new Int32Array(w * h).fill(BG), w, h };
}

/** Pixels that changed, as "x,y" strings. */
function changed({ buf, w }) {
  const out = [];
  for (let i = 0; i < buf.length; i++) if (buf[i] !== BG) out.push(`${i % w},${Math.floor(i / w)}`);
  return out;
}

// distance from pixel centre (px + 0.5, py + 0.5) to the segment (x0, y0)-(x1, y1), pixels at
// (x + 0.5, y + 0.5) as drawLinks maps them
function distance(px, py, x0, y0, x1, y1) {
  const [qx, qy] = [px, py];
  const dx = x1 - x0;
  const dy = y1 - y0;
  const t = Math.max(0, Math.min(1, ((qx - x0) * dx + (qy - y0) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(qx - (x0 + t * dx), qy - (y0 + t * dy));
}

function seeded(seed) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff);
}

test('a link shorter than a pixel both ways is not drawn; a pixel or longer is', () => {
  const c = canvas(10, 10);
  const xy = [2, 2, 2.9, 2.5, 5, 5, 6, 5, 7, 7, 7, 7];
  assert.equal(drawLinks(c, Int32Array.of(0, 1), xy, 0, 0, 1, LINK), 0, 'under a pixel: its ends cover it');
  assert.equal(drawLinks(c, Int32Array.of(4, 5), xy, 0, 0, 1, LINK), 0, 'no length');
  assert.deepEqual(changed(c), []);
  assert.equal(drawLinks(c, Int32Array.of(2, 3), xy, 0, 0, 1, LINK), 1);
  assert.deepEqual(changed(c).sort(), ['5,5', '6,5']);
  // the scale decides: the short link drawn when zoomed in
  const z = canvas(40, 40);
  assert.equal(drawLinks(z, Int32Array.of(0, 1), xy, 0, 0, 4, LINK), 1);
  assert.ok(changed(z).length >= 4);
});

test('each pixel of a line blended once, a quarter toward the link colour, crossings darker', () => {
  const c = canvas(20, 20);
  // horizontal, vertical, diagonal, crossing at (10, 10)
  const xy = [2, 10, 18, 10, 10, 2, 10, 18, 3, 3, 17, 17];
  assert.equal(drawLinks(c, Int32Array.of(0, 1, 2, 3, 4, 5), xy, 0, 0, 1, LINK), 3);
  const at = (x, y) => c.buf[y * 20 + x];
  const once = (((BG >> 1) & 0x7f7f7f) + ((BG >> 2) & 0x3f3f3f) + ((LINK >> 2) & 0x3f3f3f)) | 0xff000000;
  assert.equal(at(2, 10), once);
  assert.equal(at(18, 10), once);
  assert.equal(at(10, 2), once);
  assert.equal(at(15, 15), once);
  const red = (v) => v & 0xff;
  assert.ok(red(at(10, 10)) < red(once), 'three links cross there: darker');
  assert.equal(changed(c).length, 17 + 17 + 15 - 2, 'every pixel of each line, the crossings counted once');
});

test('clipped to the buffer: the part inside is drawn, nothing wraps to another row, off the buffer nothing', () => {
  const c = canvas(10, 10);
  // through the buffer from outside to outside
  assert.equal(drawLinks(c, Int32Array.of(0, 1), [-50, 5, 150, 5], 0, 0, 1, LINK), 1);
  assert.deepEqual(changed(c).sort(), [...Array(10).keys()].map((x) => `${x},5`).sort());
  const d = canvas(10, 10);
  // wholly outside, beside or across a corner, and not a number
  const xy = [-5, -5, -1, 20, 12, 0, 30, 9, -3, 2, 2, -3, NaN, 1, 5, 5];
  assert.equal(drawLinks(d, Int32Array.of(0, 1, 2, 3, 4, 5, 6, 7), xy, 0, 0, 1, LINK), 0);
  assert.deepEqual(changed(d), []);
  // steep lines whose ends round just past the right and bottom edges
  const e = canvas(10, 10);
  drawLinks(e, Int32Array.of(0, 1, 2, 3), [9.49, 0, 9.6, 9.6, 0, 9.49, 9.6, 9.6], 0, 0, 1, LINK);
  for (const p of changed(e)) {
    const [x, y] = p.split(',').map(Number);
    assert.ok(x >= 8 || y >= 8, `pixel ${p} far from both lines: wrapped around`);
  }
});

test('random lines: every pixel drawn within a pixel of its segment (clipped), one per step of the longer axis', () => {
  const rnd = seeded(7);
  const [w, h] = [64, 48];
  for (let i = 0; i < 3000; i++) {
    const c = canvas(w, h);
    const inside = i % 2 === 0;
    const span = inside ? 1 : 3;
    const xy = [0, 0, 0, 0].map((_, j) => (rnd() * span - (span - 1) / 2) * (j % 2 ? h - 1 : w - 1));
    const drawn = drawLinks(c, Int32Array.of(0, 1), xy, 0, 0, 1, LINK);
    const pixels = changed(c);
    assert.equal(pixels.length > 0, drawn === 1);
    for (const p of pixels) {
      const [x, y] = p.split(',').map(Number);
      const d = distance(x, y, ...xy);
      assert.ok(d <= 1.1, `line ${xy.map((v) => v.toFixed(2))}: pixel ${p} at ${d.toFixed(2)} px`);
    }
    if (inside && drawn) {
      const [x0, y0, x1, y1] = xy;
      const [m0, m1] = Math.abs(x1 - x0) >= Math.abs(y1 - y0) ? [x0, x1] : [y0, y1]; // the longer axis
      const n = Math.abs(Math.round(m1) - Math.round(m0));
      assert.equal(pixels.length, n + 1, `line ${xy}`);
    }
  }
});

// an evenly spread mass of cells (a jittered grid `gap` px apart) of radius r in a w x h buffer
function mass(w, h, gap, r, rnd) {
  const xy = [];
  for (let y = gap; y < h - gap; y += gap) {
    for (let x = gap; x < w - gap; x += gap) xy.push(x + (rnd() - 0.5) * gap * 0.5, y + (rnd() - 0.5) * gap * 0.5);
  }
  return { xy: Float64Array.from(xy), count: xy.length / 2, ox: 0, oy: 0, k: 1, radius: r };
}

test('the cover: tiles amid dense cells, none amid sparse ones, none at the buffer edge, cells of their own radius', () => {
  const cover = createCellCover();
  const [w, h] = [10 * TILE, 8 * TILE];
  const tw = w / TILE;
  const th = h / TILE;
  const dense = cover(w, h, mass(w, h, 2, 2.5, seeded(1))); // discs of 19.6 px² every 4 px²: density 4.9
  assert.equal(dense.tw, tw);
  let inner = 0;
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < tw; tx++) {
      const t = dense.tiles[ty * tw + tx];
      if (tx === 0 || ty === 0 || tx === tw - 1 || ty === th - 1) assert.equal(t, 0, `edge tile ${tx},${ty}`);
      else inner += t;
    }
  }
  assert.equal(inner, (tw - 2) * (th - 2), 'every inner tile of a dense mass');
  const sparse = createCellCover()(w, h, mass(w, h, 6, 2, seeded(1))); // density 0.35: gaps between cells
  assert.equal(sparse.tiles.reduce((a, b) => a + b, 0), 0);
  // the same sparse cells, each of its own radius 7 px: dense again; radii of 0 take `radius`
  const cells = mass(w, h, 6, 2, seeded(1));
  const big = createCellCover()(w, h, { ...cells, radii: new Float64Array(cells.count).fill(7) });
  assert.ok(big.tiles.reduce((a, b) => a + b, 0) > 0);
  const none = createCellCover()(w, h, { ...cells, radii: new Float64Array(cells.count) });
  assert.equal(none.tiles.reduce((a, b) => a + b, 0), 0);
  // a hole in the mass: its tiles and their neighbours are not covered
  const holed = mass(w, h, 2, 2.5, seeded(1));
  const kept = [];
  for (let i = 0; i < holed.count; i++) {
    const [x, y] = [holed.xy[2 * i], holed.xy[2 * i + 1]];
    if (Math.hypot(x - w / 2, y - h / 2) > 1.5 * TILE) kept.push(x, y);
  }
  const h2 = createCellCover()(w, h, { ...holed, xy: Float64Array.from(kept), count: kept.length / 2 });
  const tile = (x, y) => h2.tiles[(y >> TILE_SHIFT) * tw + (x >> TILE_SHIFT)];
  assert.equal(tile(w / 2, h / 2), 0);
  assert.equal(tile(w / 2 + 2 * TILE, h / 2), 0, 'beside the hole');
  assert.equal(tile(1.5 * TILE, 1.5 * TILE), 1, 'far from it');
});

test('covered tiles are skipped: a link within them draws nothing, one leaving them only its part outside', () => {
  const [w, h] = [8 * TILE, 8 * TILE];
  const tw = w / TILE;
  const tiles = new Uint8Array(tw * tw);
  // tiles (1..4, 1..4) covered: pixels TILE … 5 * TILE - 1 both ways
  const lo = TILE;
  const hi = 5 * TILE - 1;
  for (let ty = 1; ty <= 4; ty++) for (let tx = 1; tx <= 4; tx++) tiles[ty * tw + tx] = 1;
  const cover = { tiles, tw };
  const inTiles = (x, y) => x >= lo && x <= hi && y >= lo && y <= hi;
  const c = canvas(w, h);
  const a = lo + 2;
  const b = hi - 2;
  drawLinks(c, Int32Array.of(0, 1, 2, 3), [a, a, b, b, a, b, b, a], 0, 0, 1, LINK, cover);
  assert.deepEqual(changed(c), [], 'wholly inside');
  // longer than a box tested whole: walked, its pieces skipped
  const big = canvas(64 * TILE, 8 * TILE);
  const bigTiles = new Uint8Array(64 * 8);
  for (let tx = 1; tx < 63; tx++) bigTiles[3 * 64 + tx] = 1;
  drawLinks(big, Int32Array.of(0, 1), [TILE + 1, 3.5 * TILE, 62 * TILE, 3.5 * TILE], 0, 0, 1, LINK, { tiles: bigTiles, tw: 64 });
  assert.deepEqual(changed(big), []);
  // across: only the pixels outside the covered tiles
  const d = canvas(w, h);
  const plain = canvas(w, h);
  const xy = [1, (lo + hi) / 2, w - 2, (lo + hi) / 2 + 3, (lo + hi) / 2, 1, (lo + hi) / 2 + 5, h - 2];
  drawLinks(d, Int32Array.of(0, 1, 2, 3), xy, 0, 0, 1, LINK, cover);
  drawLinks(plain, Int32Array.of(0, 1, 2, 3), xy, 0, 0, 1, LINK);
  const outside = changed(plain).filter((p) => !inTiles(...p.split(',').map(Number)));
  assert.deepEqual(changed(d).sort(), outside.sort());
  assert.ok(outside.length > 0 && outside.length < changed(plain).length);
});

test('skipping the links under a dense mass leaves the picture as it was', () => {
  const rnd = seeded(3);
  const [w, h] = [240, 180];
  // sparse cells (density ~0.9: links show between them), and in the middle a disc of
  // cells four times as dense, where links hide under them
  const cells = mass(w, h, 3, 1.6, rnd);
  const dense = mass(w, h, 1.5, 1.6, rnd);
  const middle = [];
  for (let i = 0; i < dense.count; i++) {
    const [x, y] = [dense.xy[2 * i], dense.xy[2 * i + 1]];
    if (Math.hypot(x - w / 2, y - h / 2) < 60) middle.push(x, y);
  }
  cells.xy = Float64Array.from([...cells.xy, ...middle]);
  cells.count = cells.xy.length / 2;
  // mostly links to cells nearby in the list, some anywhere
  const pairs = [];
  for (let i = 0; i < 2 * cells.count; i++) {
    const a = Math.floor(rnd() * cells.count);
    const b = rnd() < 0.05 ? Math.floor(rnd() * cells.count) : Math.min(cells.count - 1, a + 1 + Math.floor(rnd() * 3));
    pairs.push(a, b);
  }
  const palette = paletteOf([[73, 148, 40], [37, 99, 235]]);
  const slots = Uint16Array.from({ length: cells.count }, (_, i) => i % 2);
  const draw = (cover) => {
    const c = canvas(w, h);
    drawLinks(c, Int32Array.from(pairs), cells.xy, 0, 0, 1, LINK, cover);
    stampCells(c, { ...cells, palette, cache: createMaskCache(), slots });
    return c.buf;
  };
  const cover = createCellCover()(w, h, cells);
  const covered = cover.tiles.reduce((x, y) => x + y, 0);
  assert.ok(covered >= 5, `${covered} tiles covered`);
  const before = draw(null);
  const after = draw(cover);
  let differ = 0;
  for (let i = 0; i < before.length; i++) {
    const [p, q] = [before[i], after[i]];
    const diff = Math.abs((p & 255) - (q & 255)) + Math.abs(((p >> 8) & 255) - ((q >> 8) & 255)) + Math.abs(((p >> 16) & 255) - ((q >> 16) & 255));
    if (diff > 24) differ++;
  }
  assert.ok(differ <= before.length / 1000, `${differ} of ${before.length} pixels differ visibly`);
  // and the sparse part, where links show, is drawn as before
  let sparseDiffer = 0;
  for (let y = 0; y < 40; y++) for (let x = 0; x < w; x++) if (before[y * w + x] !== after[y * w + x]) sparseDiffer++;
  assert.equal(sparseDiffer, 0);
});

test('deep zoom: links stroked as one path, but those off the view or under a pixel', () => {
  const calls = [];
  const ctx = {
    beginPath: () => calls.push('begin'),
    moveTo: (x, y) => calls.push(['M', x, y]),
    lineTo: (x, y) => calls.push(['L', x, y]),
    stroke: () => calls.push('stroke'),
  };
  const xy = [10, 10, 90, 50, -50, -50, -10, -90, 40, 40, 40.5, 40.5, -20, 50, 120, 50];
  const n = strokeLinks(ctx, Int32Array.of(0, 1, 2, 3, 4, 5, 6, 7), xy, 0, 0, 1, 100, 100);
  assert.equal(n, 2);
  assert.deepEqual(calls, ['begin', ['M', 10, 10], ['L', 90, 50], ['M', -20, 50], ['L', 120, 50], 'stroke']);
});

test("deep tiles: their distance into the covered ones; a link skipped by its ends' tiles has every pixel in covered tiles", () => {
  const [w, h] = [24 * TILE, 16 * TILE];
  const tw = w / TILE;
  // a dense mass with a hole: tiles around the hole and the buffer's edge are not covered
  const cells = mass(w, h, 2, 2.5, seeded(5));
  const kept = [];
  for (let i = 0; i < cells.count; i++) {
    const [x, y] = [cells.xy[2 * i], cells.xy[2 * i + 1]];
    if (Math.hypot(x - 16 * TILE, y - 8 * TILE) > 2 * TILE) kept.push(x, y);
  }
  cells.xy = Float64Array.from(kept);
  cells.count = kept.length / 2;
  const cover = createCellCover()(w, h, cells);
  const { tiles, deep, cellTx, cellTy } = cover;
  // deep is the distance to the nearest tile not covered, the larger axis's
  for (let t = 0; t < tw * (h / TILE); t++) {
    const [tx, ty] = [t % tw, Math.floor(t / tw)];
    let nearest = Infinity;
    for (let u = 0; u < tw * (h / TILE); u++) {
      if (tiles[u] === 0) nearest = Math.min(nearest, Math.max(Math.abs(u % tw - tx), Math.abs(Math.floor(u / tw) - ty)));
    }
    assert.equal(deep[t], tiles[t] ? nearest : 0, `tile ${tx},${ty}`);
  }
  assert.ok(Math.max(...deep) >= 4, 'some tiles deep inside');
  // links between random cells: those the ends' tiles let skip draw only in covered tiles
  const rnd = seeded(9);
  let skipped = 0;
  for (let n = 0; n < 3000; n++) {
    const i = Math.floor(rnd() * cells.count);
    const j = Math.min(cells.count - 1, Math.max(0, i + Math.floor((rnd() - 0.5) * (n % 3 ? 24 : 4000))));
    const d = Math.max(Math.abs(cellTx[i] - cellTx[j]), Math.abs(cellTy[i] - cellTy[j])) + 2;
    if (!(deep[cellTy[i] * tw + cellTx[i]] >= d || deep[cellTy[j] * tw + cellTx[j]] >= d)) continue;
    skipped++;
    const c = canvas(w, h);
    drawLinks(c, Int32Array.of(i, j), cells.xy, 0, 0, 1, LINK);
    for (const p of changed(c)) {
      const [x, y] = p.split(',').map(Number);
      assert.equal(tiles[(y >> TILE_SHIFT) * tw + (x >> TILE_SHIFT)], 1, `link ${i}-${j}: pixel ${p} not in a covered tile`);
    }
    const covered = canvas(w, h);
    drawLinks(covered, Int32Array.of(i, j), cells.xy, 0, 0, 1, LINK, cover);
    assert.deepEqual(changed(covered), []);
  }
  assert.ok(skipped > 500, `${skipped} links skipped`);
});

test('the link index: index pairs of the links whose ends are drawn, kept while the data is the same, made again when it changes', () => {
  const pairsOf = createLinkIndex();
  const data = createCellData();
  applyDataMessage(data, { cells: { id: [] }, links: { source: [1, 2, 3], target: [2, 3, 99] } });
  const ids = [1, 2, 3];
  const index = new Map(ids.map((id, i) => [id, i]));
  const first = pairsOf(ids, index, data);
  assert.deepEqual([...first], [0, 1, 1, 2], 'a link to a cell not drawn (99) is left out');
  assert.equal(pairsOf(ids, index, data), first, 'the same data: the same pairs');
  applyDataEvent(data, { kind: 'linked', links: Array.from({ length: 600 }, (_, i) => ({ source: 1, target: 1000 + i })) });
  applyDataEvent(data, { kind: 'linked', links: [{ source: 3, target: 1 }] });
  const second = pairsOf(ids, index, data);
  assert.notEqual(second, first, 'a new version: new pairs (the link layer compares them by identity)');
  assert.deepEqual([...second], [0, 1, 1, 2, 2, 0]);
  applyDataEvent(data, { kind: 'unlinked', links: [{ source: 1, target: 2 }] });
  assert.deepEqual([...pairsOf(ids, index, data)], [1, 2, 2, 0]);
  const fewer = [2, 3];
  assert.deepEqual([...pairsOf(fewer, new Map(fewer.map((id, i) => [id, i])), data)], [0, 1], 'other cells drawn: their own pairs');
});
