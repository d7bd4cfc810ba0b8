// The links, drawn into the pixel buffer under the cells (render.js): a one-pixel line per
// link, blended a quarter of the way toward the link colour, so crossings and bundles read
// darker and single links stay faint. Lines are clipped to the buffer. The links' cell
// indices are kept per membership and data version. Pure, no DOM.

/** Keeps the links of `data` as index pairs into `ids` (index: id -> i). */
export function createLinkIndex() {
  let key = null;
  let pairs = new Int32Array(0);
  return function pairsOf(ids, index, data) {
    if (key && key.ids === ids && key.data === data && key.version === data.version) return pairs;
    const out = [];
    for (const l of data.links.values()) {
      const a = index.get(l.source);
      const b = index.get(l.target);
      if (a !== undefined && b !== undefined) out.push(a, b);
    }
    pairs = Int32Array.from(out);
    key = { ids, data, version: data.version };
    return pairs;
  };
}

/**
 * Draws `pairs` (index pairs into xy) mapped to pixels by (ox + x*k, oy + y*k) into `buf`
 * (w x h), each pixel blended a quarter toward `color` (packed 0xAABBGGRR). Returns how
 * many lines were drawn.
 */
export function drawLinks({ buf, w, h }, pairs, xy, ox, oy, k, color) {
  const c4 = (color >> 2) & 0x3f3f3f;
  let drawn = 0;
  for (let p = 0; p < pairs.length; p += 2) {
    const a = pairs[p];
    const b = pairs[p + 1];
    // clipped to the buffer first (also drops NaN), so the loop below checks nothing
    const seg = clip(ox + xy[2 * a] * k, oy + xy[2 * a + 1] * k, ox + xy[2 * b] * k, oy + xy[2 * b + 1] * k, w, h);
    if (seg === null) continue;
    const [x0, y0, x1, y1] = seg;
    const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
    // 16.16 fixed point: a shift per pixel instead of a float to int conversion
    let x = Math.round((x0 + 0.5) * 65536);
    let y = Math.round((y0 + 0.5) * 65536);
    const dx = n > 0 ? Math.round(((x1 - x0) / n) * 65536) : 0;
    const dy = n > 0 ? Math.round(((y1 - y0) / n) * 65536) : 0;
    for (let t = 0; t <= n; t++, x += dx, y += dy) {
      const ix = x >> 16;
      const iy = y >> 16;
      if (ix >= w || iy >= h || ix < 0 || iy < 0) continue; // rounding at the very edge
      const q = iy * w + ix;
      const v = buf[q];
      buf[q] = (((v >> 1) & 0x7f7f7f) + ((v >> 2) & 0x3f3f3f) + c4) | 0xff000000;
    }
    drawn++;
  }
  return drawn;
}

// Liang-Barsky: the part of the segment inside [0, w - 1] x [0, h - 1], or null (NaN: null).
function clip(x0, y0, x1, y1, w, h) {
  if (!(Math.max(x0, x1) >= 0 && Math.min(x0, x1) <= w - 1 && Math.max(y0, y1) >= 0 && Math.min(y0, y1) <= h - 1)) return null;
  let t0 = 0;
  let t1 = 1;
  const dx = x1 - x0;
  const dy = y1 - y0;
  for (const [p, q] of [[-dx, x0], [dx, w - 1 - x0], [-dy, y0], [dy, h - 1 - y0]]) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return null;
  }
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}
