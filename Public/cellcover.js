// Where the cells hide the links under them (render.js, linkdraw.js): the screen in 8 x 8 px
// tiles, a tile counted as covered when it and its eight neighbours each hold cells whose
// discs add up to DENSE times the tile's area. A laid-out graph spreads its cells evenly
// (they repel), so there the discs overlap and leave no gap: a big graph fitted to the
// screen is a solid mass of cells, and most of its links' pixels, drawn first, would be
// stamped over (at 100k cells and 200k links, most of 3.8M pixels a frame). linkdraw.js
// skips those tiles. Checked against drawing every link on dumped layouts of 10k and 100k
// cells (Tests/web/README.md). Nothing is allocated per frame. Pure, no DOM.

export const TILE_SHIFT = 4; // 16 x 16 px
const TILE_AREA = 1 << (2 * TILE_SHIFT);
const DENSE = 3; // disc area over tile area: evenly spread discs cover a tile at ~1.2

/**
 * cover(w, h, cells) -> {tiles, tw}: tiles[ty * tw + tx] is 1 when tile (tx, ty) is
 * covered. cells: {xy, count, ox, oy, k, radius, radii, minRadius}: pixel position of cell i
 * (ox + x*k, oy + y*k), its disc's radius in px radii[i] * k (at least minRadius) when
 * radii[i] > 0, else `radius`.
 */
export function createCellCover() {
  let area = new Float32Array(0);
  let tiles = new Uint8Array(0);
  return function cover(w, h, { xy, count, ox, oy, k, radius, radii = null, minRadius = 0 }) {
    const tw = (w + (1 << TILE_SHIFT) - 1) >> TILE_SHIFT;
    const th = (h + (1 << TILE_SHIFT) - 1) >> TILE_SHIFT;
    const n = tw * th;
    if (area.length < n) {
      area = new Float32Array(n);
      tiles = new Uint8Array(n);
    }
    area.fill(0, 0, n);
    const standard = Math.PI * radius * radius;
    for (let i = 0; i < count; i++) {
      const x = ox + xy[2 * i] * k;
      const y = oy + xy[2 * i + 1] * k;
      if (!(x >= 0 && x < w && y >= 0 && y < h)) continue;
      let a = standard;
      if (radii !== null && radii[i] > 0) {
        const r = Math.max(minRadius, radii[i] * k);
        a = Math.PI * r * r;
      }
      area[(y >> TILE_SHIFT) * tw + (x >> TILE_SHIFT)] += a;
    }
    // covered: dense, and so are its neighbours (the buffer's edge tiles never)
    tiles.fill(0, 0, n);
    const min = DENSE * TILE_AREA;
    for (let ty = 1; ty < th - 1; ty++) {
      for (let tx = 1; tx < tw - 1; tx++) {
        const t = ty * tw + tx;
        if (area[t] < min) continue;
        if (area[t - tw - 1] >= min && area[t - tw] >= min && area[t - tw + 1] >= min
          && area[t - 1] >= min && area[t + 1] >= min
          && area[t + tw - 1] >= min && area[t + tw] >= min && area[t + tw + 1] >= min) tiles[t] = 1;
      }
    }
    return { tiles, tw };
  };
}
