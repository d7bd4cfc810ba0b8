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
    let x0 = ox + xy[2 * a] * k;
    let y0 = oy + xy[2 * a + 1] * k;
    let x1 = ox + xy[2 * b] * k;
    let y1 = oy + xy[2 * b + 1] * k;
    // both ends off the same side: nothing to draw (also drops NaN)
    if (!(Math.max(x0, x1) >= 0 && Math.min(x0, x1) < w && Math.max(y0, y1) >= 0 && Math.min(y0, y1) < h)) continue;
    const steps = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
    if (!(steps > 0) || steps > 4 * (w + h)) {
      if (!(steps > 0)) continue;
      // a very long line: clip it to the buffer first
      [x0, y0, x1, y1] = clip(x0, y0, x1, y1, w, h) || [];
      if (x0 === undefined) continue;
    }
    const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
    const dx = (x1 - x0) / n;
    const dy = (y1 - y0) / n;
    let x = x0 + 0.5;
    let y = y0 + 0.5;
    for (let t = 0; t <= n; t++, x += dx, y += dy) {
      const ix = x | 0;
      const iy = y | 0;
      if (ix < 0 || iy < 0 || ix >= w || iy >= h || x < 0 || y < 0) continue;
      const q = iy * w + ix;
      const v = buf[q];
      buf[q] = (((v >> 1) & 0x7f7f7f) + ((v >> 2) & 0x3f3f3f) + c4) | 0xff000000;
    }
    drawn++;
  }
  return drawn;
}

// Liang-Barsky: the part of the segment inside [0, w) x [0, h), or null.
function clip(x0, y0, x1, y1, w, h) {
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
