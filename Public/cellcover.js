// Where the cells hide the links under them (render.js, linkdraw.js): the screen in 8 x 8 px
// tiles, a tile counted as covered when it and its eight neighbours each hold cells whose
// discs add up to DENSE times the tile's area. A laid-out graph spreads its cells evenly
// (they repel), so there the discs overlap and leave no gap: a big graph fitted to the
// screen is a solid mass of cells, and most of its links' pixels, drawn first, would be
// stamped over (at 100k cells and 200k links, most of 3.8M pixels a frame). linkdraw.js
// skips those tiles, and a link whose ends are deep enough inside them without reading its
// positions. Checked against drawing every link on dumped layouts of 10k and 100k
// cells (Tests/web/README.md). Nothing is allocated per frame. Pure, no DOM.

export const TILE_SHIFT = 4; // 16 x 16 px
const TILE_AREA = 1 << (2 * TILE_SHIFT);
const DENSE = 3; // disc area over tile area: evenly spread discs cover a tile at ~1.2

/**
 * cover(w, h, cells) -> {tiles, tw, deep, cellTx, cellTy}: tiles[ty * tw + tx] is 1 when
 * tile (tx, ty) is covered; deep[t] is how far t is inside the covered tiles (0: not
 * covered; d: every tile within d - 1 of it is covered; at most 255); cell i's centre is in
 * tile (cellTx[i], cellTy[i]) ((0, 0), an edge tile, when off the buffer). A link between
 * cells whose tiles are D apart (the larger of the two axes' distances) lies within D of
 * either end's tile, and its pixels within a pixel of it: wholly in covered tiles when either
 * end's deep is D + 2 or more, found without its positions (linkdraw.js). cells: {xy, count,
 * ox, oy, k, radius, radii, minRadius}: pixel position of cell i (ox + x*k, oy + y*k), its
 * disc's radius in px radii[i] * k (at least minRadius) when radii[i] > 0, else `radius`.
 */
export function createCellCover() {
  let area = new Float32Array(0);
  let tiles = new Uint8Array(0);
  let deep = new Uint8Array(0);
  let cellTx = new Int16Array(0);
  let cellTy = new Int16Array(0);
  return function cover(w, h, { xy, count, ox, oy, k, radius, radii = null, minRadius = 0 }) {
    const tw = (w + (1 << TILE_SHIFT) - 1) >> TILE_SHIFT;
    const th = (h + (1 << TILE_SHIFT) - 1) >> TILE_SHIFT;
    const n = tw * th;
    if (area.length < n) {
      area = new Float32Array(n);
      tiles = new Uint8Array(n);
      deep = new Uint8Array(n);
    }
    if (cellTx.length < count) {
      cellTx = new Int16Array(Math.max(count, 2 * cellTx.length));
      cellTy = new Int16Array(cellTx.length);
    }
    area.fill(0, 0, n);
    const standard = Math.PI * radius * radius;
    for (let i = 0; i < count; i++) {
      const x = ox + xy[2 * i] * k;
      const y = oy + xy[2 * i + 1] * k;
      if (!(x >= 0 && x < w && y >= 0 && y < h)) {
        cellTx[i] = 0;
        cellTy[i] = 0;
        continue;
      }
      let a = standard;
      if (radii !== null && radii[i] > 0) {
        const r = Math.max(minRadius, radii[i] * k);
        a = Math.PI * r * r;
      }
      const tx = x >> TILE_SHIFT;
      const ty = y >> TILE_SHIFT;
      cellTx[i] = tx;
      cellTy[i] = ty;
      area[ty * tw + tx] += a;
    }
    // covered: dense, and so are its neighbours (the buffer's edge tiles never)
    const min = DENSE * TILE_AREA;
    tiles.fill(0, 0, n);
    for (let ty = 1; ty < th - 1; ty++) {
      for (let tx = 1; tx < tw - 1; tx++) {
        const t = ty * tw + tx;
        if (area[t] >= min && Math.min(area[t - tw - 1], area[t - tw], area[t - tw + 1], area[t - 1], area[t + 1],
          area[t + tw - 1], area[t + tw], area[t + tw + 1]) >= min) tiles[t] = 1;
      }
    }
    // deep: the distance (the larger axis's, in tiles) to the nearest tile not covered, by
    // two passes (a chamfer distance transform: exact for this distance)
    for (let t = 0; t < n; t++) deep[t] = tiles[t] === 1 ? 255 : 0;
    for (let ty = 1; ty < th - 1; ty++) {
      for (let tx = 1; tx < tw - 1; tx++) {
        const t = ty * tw + tx;
        if (deep[t] !== 0) deep[t] = Math.min(deep[t], 1 + Math.min(deep[t - tw - 1], deep[t - tw], deep[t - tw + 1], deep[t - 1]));
      }
    }
    for (let ty = th - 2; ty >= 1; ty--) {
      for (let tx = tw - 2; tx >= 1; tx--) {
        const t = ty * tw + tx;
        if (deep[t] !== 0) deep[t] = Math.min(deep[t], 1 + Math.min(deep[t + tw + 1], deep[t + tw], deep[t + tw - 1], deep[t + 1]));
      }
    }
    return { tiles, tw, deep, cellTx, cellTy };
  };
}
