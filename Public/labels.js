// Cells' labels on the canvas (render.js): drawn on cells at least MIN_RADIUS CSS px across
// on screen (zoom in and more appear), centred on the cell, never overlapping each other:
// larger cells first, then a label is placed only where no placed label is (a grid of
// boxes keeps the test near constant). At most MAX labels a frame; each label's width is
// measured once. With the 2D context.
const MIN_RADIUS = 7; // CSS px
const MAX = 400;
const FONT_PX = 12;
const CELL = 64; // grid cell of the overlap test, CSS px
const widths = new Map(); // label -> its width in the labels' font (measured once)

/**
 * Draws the labels of `scene` ({xy, count, ids, radii, cellSize, data}); r is the default
 * radius in CSS px, k the scale, (ox, oy) the origin on screen. Returns how many it drew.
 */
export function drawLabels({ ctx, dpr, cssW, cssH, colors }, scene, ox, oy, k, r) {
  const { cells } = scene.data;
  if (cells.size === 0) return 0;
  const { radii, xy, ids } = scene;
  // too small to label at this zoom: a glance, not a pass over 100k cells' data (radii:
  // each cell's own, so then per cell, the cheap tests before the label's lookup)
  if (!radii && r < MIN_RADIUS) return 0;
  const candidates = [];
  for (let i = 0; i < scene.count; i++) {
    const radius = radii && radii[i] > 0 ? radii[i] * k : r;
    if (radius < MIN_RADIUS) continue;
    const x = ox + xy[2 * i] * k;
    const y = oy + xy[2 * i + 1] * k;
    if (x < -100 || y < -20 || x > cssW + 100 || y > cssH + 20) continue;
    const label = cells.get(ids[i])?.label;
    if (!label) continue;
    candidates.push({ label, radius, x, y });
  }
  if (candidates.length === 0) return 0;
  candidates.sort((a, b) => b.radius - a.radius);
  return placeLabels({ ctx, dpr, colors }, candidates, MAX);
}

/**
 * Draws `candidates` ({label, x, y}, CSS px, the most important first) where no label placed
 * before is, at most `max` of them. Returns how many it drew.
 */
export function placeLabels({ ctx, dpr, colors }, candidates, max) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = `${FONT_PX}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = colors.bg;
  ctx.fillStyle = colors.hover;
  const grid = new Map();
  let drawn = 0;
  for (const c of candidates) {
    if (drawn >= max) break;
    let w = widths.get(c.label);
    if (w === undefined) {
      if (widths.size > 20000) widths.clear();
      w = ctx.measureText(c.label).width + 4;
      widths.set(c.label, w);
    }
    const box = { x0: c.x - w / 2, x1: c.x + w / 2, y0: c.y - FONT_PX / 2 - 1, y1: c.y + FONT_PX / 2 + 1 };
    if (overlaps(grid, box)) continue;
    place(grid, box);
    ctx.strokeText(c.label, c.x, c.y);
    ctx.fillText(c.label, c.x, c.y);
    drawn++;
  }
  return drawn;
}

function keys(box, visit) {
  for (let gx = Math.floor(box.x0 / CELL); gx <= Math.floor(box.x1 / CELL); gx++) {
    for (let gy = Math.floor(box.y0 / CELL); gy <= Math.floor(box.y1 / CELL); gy++) {
      if (visit(`${gx},${gy}`)) return true;
    }
  }
  return false;
}

function overlaps(grid, box) {
  return keys(box, (key) => (grid.get(key) || []).some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1));
}

function place(grid, box) {
  keys(box, (key) => {
    const list = grid.get(key);
    if (list) list.push(box);
    else grid.set(key, [box]);
    return false;
  });
}
