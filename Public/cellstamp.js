// Many cells stamped at once into a 32-bit pixel buffer, from the disc masks of raster.js:
// small discs (radius under SUPERSAMPLE_BELOW px) from their flattened masks by quarters of
// coverage, larger ones row by row; cells at the border clipped, cells off it skipped. Pure,
// no DOM.
import { PHASES, SUPERSAMPLE_BELOW, quantizeRadius, stamp, stampInside } from './raster.js';

/**
 * Stamp `count` cells at world positions `xy` (x0,y0,x1,y1,…) mapped to pixels by
 * (ox + x*k, oy + y*k), discs of radius `radius` px, cell i in colour slot slots[i] of
 * `palette` ({packed}, indexed by slot; slot 0 when slots is null). Cells wholly
 * outside the buffer are skipped. Returns how many were stamped.
 */
export function stampCells(img, cells) {
  const rq = quantizeRadius(cells.radius);
  return rq < SUPERSAMPLE_BELOW ? stampSmallCells(img, cells, rq) : stampLargeCells(img, cells, rq);
}

// A flattened mask (flatMasks) at table[j] with its centre pixel at buf[base], wholly inside.
// The blends by quarters keep every channel apart (at most 127 + 63 + 63) and the alpha opaque.
function stampFlat(buf, base, table, j, color) {
  const c2 = (color >> 1) & 0x7f7f7f;
  const c4 = (color >> 2) & 0x3f3f3f;
  const e0 = j + 4 + table[j];
  const e1 = e0 + table[j + 1];
  const e2 = e1 + table[j + 2];
  const e3 = e2 + table[j + 3];
  for (let t = j + 4; t < e0; t++) buf[base + table[t]] = color;
  for (let t = e0; t < e1; t++) {
    const p = base + table[t];
    const v = buf[p];
    buf[p] = (((v >> 1) & 0x7f7f7f) + ((v >> 2) & 0x3f3f3f) + c4) | 0xff000000;
  }
  for (let t = e1; t < e2; t++) {
    const p = base + table[t];
    buf[p] = (((buf[p] >> 1) & 0x7f7f7f) + c2) | 0xff000000;
  }
  for (let t = e2; t < e3; t++) {
    const p = base + table[t];
    buf[p] = (((buf[p] >> 2) & 0x3f3f3f) + c2 + c4) | 0xff000000;
  }
}

// stampCells for small discs: flattened masks, the row masks only for cells at the border.
// Positions are mapped to quarter pixels (PHASES = 4) at once: the integer part holds both
// the pixel and the phase.
function stampSmallCells({ buf, w, h }, { xy, count, ox, oy, k, slots, palette, cache }, rq) {
  const { table, starts } = cache.flat(rq, w);
  const set = cache.masks(rq);
  const pad = rq + 1;
  const ext = Math.ceil(rq) + 2; // every phase's mask lies within ext pixels of its centre pixel
  const [kq, oxq, oyq] = [k * PHASES, ox * PHASES, oy * PHASES];
  const [lo, hiX, hiY] = [ext * PHASES, (w - ext) * PHASES, (h - ext) * PHASES];
  const { packed } = palette;
  let drawn = 0;
  for (let i = 0; i < count; i++) {
    const qx = oxq + xy[2 * i] * kq;
    const qy = oyq + xy[2 * i + 1] * kq;
    const color = packed[slots ? slots[i] : 0];
    if (qx >= lo && qx < hiX && qy >= lo && qy < hiY) {
      const fx = qx | 0;
      const fy = qy | 0;
      stampFlat(buf, (fy >> 2) * w + (fx >> 2), table, starts[((fy & 3) << 2) | (fx & 3)], color);
      drawn++;
      continue;
    }
    const sx = qx / PHASES;
    const sy = qy / PHASES;
    // near the border (clipped), or off it (also NaN)
    if (!(sx > -pad && sx < w + pad && sy > -pad && sy < h + pad)) continue;
    drawn++;
    const ix = Math.floor(sx);
    const iy = Math.floor(sy);
    const p = ((((sy - iy) * PHASES) | 0) * PHASES) + (((sx - ix) * PHASES) | 0);
    stamp(buf, w, h, ix, iy, set[p] || cache.mask(set, rq, p), color);
  }
  return drawn;
}

function stampLargeCells({ buf, w, h }, { xy, count, ox, oy, k, slots, palette, cache }, rq) {
  const set = cache.masks(rq);
  const pad = rq + 1;
  // every phase's mask lies within ext pixels of its centre pixel
  const ext = Math.ceil(rq) + 2;
  const { packed } = palette;
  let drawn = 0;
  for (let i = 0; i < count; i++) {
    const sx = ox + xy[2 * i] * k;
    const sy = oy + xy[2 * i + 1] * k;
    // also rejects NaN
    if (!(sx > -pad && sx < w + pad && sy > -pad && sy < h + pad)) continue;
    const ix = Math.floor(sx);
    const iy = Math.floor(sy);
    const p = ((((sy - iy) * PHASES) | 0) * PHASES) + (((sx - ix) * PHASES) | 0);
    const mask = set[p] || cache.mask(set, rq, p);
    const c = slots ? slots[i] : 0;
    drawn++;
    if (ix < ext || iy < ext || ix >= w - ext || iy >= h - ext) {
      stamp(buf, w, h, ix, iy, mask, packed[c]);
      continue;
    }
    stampInside(buf, w, ix, iy, mask, packed[c]); // wholly inside: the common case
  }
  return drawn;
}
