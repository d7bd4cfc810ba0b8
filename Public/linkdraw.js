// The links, drawn into the pixel buffer under the cells (render.js): a one-pixel line per
// link, blended a quarter of the way toward the link colour, so crossings and bundles read
// darker and single links stay faint. Lines are clipped to the buffer. The links' cell
// indices are kept per membership and data version. Pure, no DOM.
//
// Level of detail: a link shorter than a pixel both ways is not drawn (its ends' discs
// cover it), nor one wholly off the buffer, nor its pixels in tiles the cells cover
// (cellcover.js: in a big graph drawn whole, most of them). Nothing is allocated per link:
// at 100k cells and 200k links the clip's small arrays took most of the draw (figures in
// Tests/web/README.md).
import { TILE_SHIFT } from './cellcover.js';

const TILE = 1 << TILE_SHIFT;
const BOX_TILES = 4; // a link whose box spans at most this many tiles each way is first tested whole

/** Keeps the links of `data` as index pairs into `ids` (index: id -> i). */
export function createLinkIndex() {
  let key = null;
  let pairs = new Int32Array(0);
  let room = new Int32Array(0); // reused while the links fit: a moment after another makes no garbage
  return function pairsOf(ids, index, data) {
    if (key && key.ids === ids && key.data === data && key.version === data.version) return pairs;
    if (room.length < 2 * data.links.size) room = new Int32Array(2 * data.links.size + 1024);
    let n = 0;
    for (const l of data.links.values()) {
      const a = index.get(l.source);
      const b = index.get(l.target);
      if (a !== undefined && b !== undefined) {
        room[n++] = a;
        room[n++] = b;
      }
    }
    pairs = room.subarray(0, n);
    key = { ids, data, version: data.version };
    return pairs;
  };
}

/**
 * Draws `pairs` (index pairs into xy) mapped to pixels by (ox + x*k, oy + y*k) into `buf`
 * (w x h), each pixel blended a quarter toward `color` (packed 0xAABBGGRR), but in the
 * tiles `cover` ({tiles, tw, deep, cellTx, cellTy} of cellcover.js, or null) marks.
 * Returns how many lines were walked (not skipped whole: shorter than a pixel, off the
 * buffer, or amid covered tiles).
 */
export function drawLinks({ buf, w, h }, pairs, xy, ox, oy, k, color, cover = null) {
  const c4 = (color >> 2) & 0x3f3f3f;
  const xMax = w - 1;
  const yMax = h - 1;
  const tiles = cover ? cover.tiles : null;
  const tw = cover ? cover.tw : 0; // tiles a row (0: no tiles)
  const tile1 = cover ? 1 : 0;
  let drawn = 0;
  const deep = cover && cover.deep ? cover.deep : null;
  const cellTx = deep ? cover.cellTx : null;
  const cellTy = deep ? cover.cellTy : null;
  for (let p = 0; p < pairs.length; p += 2) {
    if (deep !== null) {
      // deep enough in covered tiles for the tiles between its ends (cellcover.js): skipped
      // before reading a position, as most links of a big graph drawn whole are
      const i = pairs[p];
      const j = pairs[p + 1];
      const ex = cellTx[i] - cellTx[j];
      const ey = cellTy[i] - cellTy[j];
      const d = Math.max(ex < 0 ? -ex : ex, ey < 0 ? -ey : ey) + 2;
      if (deep[cellTy[i] * tw + cellTx[i]] >= d || deep[cellTy[j] * tw + cellTx[j]] >= d) continue;
    }
    const a = 2 * pairs[p];
    const b = 2 * pairs[p + 1];
    let x0 = ox + xy[a] * k;
    let y0 = oy + xy[a + 1] * k;
    let x1 = ox + xy[b] * k;
    let y1 = oy + xy[b + 1] * k;
    let dx = x1 - x0;
    let dy = y1 - y0;
    if (dx < 1 && dx > -1 && dy < 1 && dy > -1) continue; // under its ends' cells
    if (dx - dx !== 0 || dy - dy !== 0) continue; // not a number, or infinite
    // within a few covered tiles (its pixels, rounded, within a pixel of its box): skipped
    // without a walk, the common case in a dense mass of cells
    if (tiles !== null && x0 >= 1 && y0 >= 1 && x1 >= 1 && y1 >= 1) {
      const ta = ((x0 < x1 ? x0 : x1) - 1) >> TILE_SHIFT;
      const tb = ((x0 < x1 ? x1 : x0) + 1) >> TILE_SHIFT;
      const tc = ((y0 < y1 ? y0 : y1) - 1) >> TILE_SHIFT;
      const td = ((y0 < y1 ? y1 : y0) + 1) >> TILE_SHIFT;
      if (tb - ta < BOX_TILES && td - tc < BOX_TILES && tb < tw && covered(tiles, tw, ta, tb, tc, td)) continue;
    }
    // clipped to the buffer unless wholly inside (Liang-Barsky; NaN fails every test)
    if (!(x0 >= 0 && x0 <= xMax && x1 >= 0 && x1 <= xMax && y0 >= 0 && y0 <= yMax && y1 >= 0 && y1 <= yMax)) {
      if (!((x0 >= 0 || x1 >= 0) && (x0 <= xMax || x1 <= xMax) && (y0 >= 0 || y1 >= 0) && (y0 <= yMax || y1 <= yMax))) continue;
      let t0 = 0;
      let t1 = 1;
      if (dx !== 0) {
        const ta = -x0 / dx; // where x = 0
        const tb = (xMax - x0) / dx; // where x = xMax
        if (dx > 0) {
          if (ta > t0) t0 = ta;
          if (tb < t1) t1 = tb;
        } else {
          if (tb > t0) t0 = tb;
          if (ta < t1) t1 = ta;
        }
      }
      if (dy !== 0) {
        const ta = -y0 / dy;
        const tb = (yMax - y0) / dy;
        if (dy > 0) {
          if (ta > t0) t0 = ta;
          if (tb < t1) t1 = tb;
        } else {
          if (tb > t0) t0 = tb;
          if (ta < t1) t1 = ta;
        }
      }
      if (!(t0 <= t1)) continue;
      x1 = x0 + t1 * dx;
      y1 = y0 + t1 * dy;
      x0 += t0 * dx;
      y0 += t0 * dy;
      dx = x1 - x0;
      dy = y1 - y0;
    }
    // one pixel per step along the major axis, the minor one in 16.16 fixed point (a shift
    // instead of a float to int conversion). The ends lie in the buffer (clipped); the minor
    // axis moves one way, so when its first and last pixels are in the buffer every pixel
    // is and the loop checks no bounds (the ends' rounding may put one just outside: then
    // the checked loop).
    if (dx * dx >= dy * dy) {
      const x = Math.round(x0);
      const n = Math.abs(Math.round(x1) - x);
      const step = x1 < x0 ? -1 : 1;
      const slope = dy / dx;
      const fy = Math.round((y0 + (x - x0) * slope + 0.5) * 65536);
      const sy = Math.round(slope * step * 65536);
      if (inside(fy, fy + n * sy, h)) run(buf, c4, x, step, n, fy, sy, 1, w, tiles, tile1, tw);
      else runChecked(buf, c4, x, step, n, fy, sy, w, h, false);
    } else {
      const y = Math.round(y0);
      const n = Math.abs(Math.round(y1) - y);
      const step = y1 < y0 ? -1 : 1;
      const slope = dx / dy;
      const fx = Math.round((x0 + (y - y0) * slope + 0.5) * 65536);
      const sx = Math.round(slope * step * 65536);
      if (inside(fx, fx + n * sx, w)) run(buf, c4, y, step, n, fx, sx, w, 1, tiles, tw, tile1);
      else runChecked(buf, c4, y, step, n, fx, sx, w, h, true);
    }
    drawn++;
  }
  return drawn;
}

/**
 * The links as one path stroked with the 2D context (cells as arcs, deep zoom: few cells on
 * the screen, most links off it): `pairs` mapped by (ox + x*k, oy + y*k), only those whose
 * box meets the w x h view and that are a pixel long or more. Returns how many.
 */
export function strokeLinks(ctx, pairs, xy, ox, oy, k, w, h) {
  let drawn = 0;
  ctx.beginPath();
  for (let p = 0; p < pairs.length; p += 2) {
    const a = 2 * pairs[p];
    const b = 2 * pairs[p + 1];
    const x0 = ox + xy[a] * k;
    const y0 = oy + xy[a + 1] * k;
    const x1 = ox + xy[b] * k;
    const y1 = oy + xy[b + 1] * k;
    if (!((x0 >= 0 || x1 >= 0) && (x0 <= w || x1 <= w) && (y0 >= 0 || y1 >= 0) && (y0 <= h || y1 <= h))) continue;
    const dx = x1 - x0;
    const dy = y1 - y0;
    if (dx < 1 && dx > -1 && dy < 1 && dy > -1) continue;
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    drawn++;
  }
  ctx.stroke();
  return drawn;
}

// every tile of columns ta…tb, rows tc…td covered (a row past the buffer's has no tile: 0)
function covered(tiles, tw, ta, tb, tc, td) {
  for (let r = tc; r <= td; r++) {
    for (let t = r * tw + ta, e = r * tw + tb; t <= e; t++) if (tiles[t] !== 1) return false;
  }
  return true;
}

// both 16.16 values on pixels 0 … size - 1
function inside(f0, f1, size) {
  const limit = size * 65536;
  return f0 >= 0 && f1 >= 0 && f0 < limit && f1 < limit;
}

/**
 * n + 1 pixels from major position m (by step ±1) at minor f >> 16 (16.16, by sf); a pixel
 * is at m * ms + minor * ns, its tile at (m >> 3) * tms + (minor >> 3) * tns (tms 0: no
 * tiles). A piece within one tile along the major axis (its minor moves under a tile: at
 * most two tiles) is skipped whole when its tiles are covered.
 */
function run(buf, c4, m, step, n, f, sf, ms, ns, tiles, tms, tns) {
  let left = n + 1;
  while (left > 0) {
    const inTile = step > 0 ? TILE - (m & (TILE - 1)) : (m & (TILE - 1)) + 1;
    const len = inTile < left ? inTile : left;
    left -= len;
    if (tms !== 0) {
      const tm = (m >> TILE_SHIFT) * tms;
      if (tiles[tm + (f >> (16 + TILE_SHIFT)) * tns] === 1 && tiles[tm + ((f + (len - 1) * sf) >> (16 + TILE_SHIFT)) * tns] === 1) {
        m += len * step;
        f += len * sf;
        continue;
      }
    }
    for (let t = 0; t < len; t++, m += step, f += sf) {
      const at = m * ms + (f >> 16) * ns;
      const v = buf[at];
      buf[at] = (((v >> 1) & 0x7f7f7f) + ((v >> 2) & 0x3f3f3f) + c4) | 0xff000000;
    }
  }
}

// run's pixels each checked against the buffer's bounds (no tiles: a line whose rounding
// reaches just past an edge, where no tile is covered)
function runChecked(buf, c4, m, step, n, f, sf, w, h, yMajor) {
  for (let t = 0; t <= n; t++, m += step, f += sf) {
    const minor = f >> 16;
    const x = yMajor ? minor : m;
    const y = yMajor ? m : minor;
    if (x < 0 || x >= w || y < 0 || y >= h) continue;
    const at = y * w + x;
    const v = buf[at];
    buf[at] = (((v >> 1) & 0x7f7f7f) + ((v >> 2) & 0x3f3f3f) + c4) | 0xff000000;
  }
}
