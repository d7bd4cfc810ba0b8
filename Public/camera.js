// Camera math: fit the world (cells plus the spring center) into a viewport and ease
// toward that fit; zoom about a point, pan, pinch. Pure, no DOM.
//
// A camera is {cx, cy, scale}: the world point (cx, cy) sits at the viewport's centre and
// one world unit is `scale` CSS pixels. A view is {x, y, w, h} in CSS pixels, the part of
// the canvas the layout may use. World y grows downward, like the screen's.

/** Bounds of the cells' discs, always including the spring center (0, 0). */
export function contentBounds(xy, cellSize, count = Math.floor((xy?.length ?? 0) / 2)) {
  let minX = 0;
  let minY = 0;
  let maxX = 0;
  let maxY = 0;
  for (let i = 0; i < count; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < minX) minX = x;
    else if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    else if (y > maxY) maxY = y;
  }
  const r = Number.isFinite(cellSize) && cellSize > 0 ? cellSize / 2 : 0;
  return { minX: minX - r, minY: minY - r, maxX: maxX + r, maxY: maxY + r };
}

/**
 * The camera that shows `bounds` whole in `view`, `margin` CSS pixels from its edges.
 * The world shown is at least `minSpan` units wide and high, so a lone cell is not huge.
 */
export function fitCamera(bounds, view, { margin = 32, minSpan = 200 } = {}) {
  const bw = Math.max(bounds.maxX - bounds.minX, minSpan, 1e-6);
  const bh = Math.max(bounds.maxY - bounds.minY, minSpan, 1e-6);
  const aw = Math.max(1, view.w - 2 * margin);
  const ah = Math.max(1, view.h - 2 * margin);
  const scale = Math.min(aw / bw, ah / bh);
  return {
    cx: (bounds.minX + bounds.maxX) / 2,
    cy: (bounds.minY + bounds.maxY) / 2,
    scale: Number.isFinite(scale) && scale > 0 ? scale : 1,
  };
}

/**
 * One animation step from `cam` toward `target` after `dt` seconds (exponential ease with
 * time constant `tau`; the scale eases in log space so zooming feels even). When less than
 * a quarter pixel is left anywhere in a view of `size` px, it lands on the target.
 * Returns {camera, moving}.
 */
export function easeCamera(cam, target, dt, { tau = 0.3, size = 1000 } = {}) {
  if (!cam) return { camera: { ...target }, moving: false };
  const t = 1 - Math.exp(-Math.max(0, dt) / tau);
  const next = {
    cx: cam.cx + (target.cx - cam.cx) * t,
    cy: cam.cy + (target.cy - cam.cy) * t,
    scale: Math.exp(Math.log(cam.scale) + (Math.log(target.scale) - Math.log(cam.scale)) * t),
  };
  const px = Math.max(
    Math.abs(next.cx - target.cx) * target.scale,
    Math.abs(next.cy - target.cy) * target.scale,
    Math.abs(next.scale / target.scale - 1) * size,
  );
  if (!(px > 0.25)) return { camera: { ...target }, moving: false };
  return { camera: next, moving: true };
}

/** Whether world `bounds` lie whole inside `view` under camera `cam`. */
export function shows(cam, view, bounds) {
  const [x0, y0] = worldToScreen(cam, view, bounds.minX, bounds.minY);
  const [x1, y1] = worldToScreen(cam, view, bounds.maxX, bounds.maxY);
  return x0 >= view.x && y0 >= view.y && x1 <= view.x + view.w && y1 <= view.y + view.h;
}

export function worldToScreen(cam, view, x, y) {
  return [view.x + view.w / 2 + (x - cam.cx) * cam.scale, view.y + view.h / 2 + (y - cam.cy) * cam.scale];
}

export function screenToWorld(cam, view, sx, sy) {
  return [cam.cx + (sx - view.x - view.w / 2) / cam.scale, cam.cy + (sy - view.y - view.h / 2) / cam.scale];
}

/** Scales a camera may take (world units to CSS px). */
export const MIN_SCALE = 1e-4;
export const MAX_SCALE = 200;
const clampScale = (s) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

/** The camera of scale `scale` that shows world point (wx, wy) at screen point (sx, sy). */
export function placeAt(scale, view, wx, wy, sx, sy) {
  return { cx: wx - (sx - view.x - view.w / 2) / scale, cy: wy - (sy - view.y - view.h / 2) / scale, scale };
}

/** Zoom by `factor` about screen point (sx, sy): the world point under it stays there. */
export function zoomAt(cam, view, sx, sy, factor) {
  const [wx, wy] = screenToWorld(cam, view, sx, sy);
  const f = Number.isFinite(factor) && factor > 0 ? factor : 1;
  return placeAt(clampScale(cam.scale * f), view, wx, wy, sx, sy);
}

/** Move the picture by (dx, dy) CSS px. */
export function panBy(cam, dx, dy) {
  return { cx: cam.cx - dx / cam.scale, cy: cam.cy - dy / cam.scale, scale: cam.scale };
}

/**
 * Two pointers moved from a0, b0 to a1, b1 (screen points [x, y]) since `start`: the world
 * point under their first midpoint follows their midpoint, the scale follows their distance.
 */
export function pinch(start, view, a0, b0, a1, b1) {
  const d0 = Math.hypot(b0[0] - a0[0], b0[1] - a0[1]);
  const d1 = Math.hypot(b1[0] - a1[0], b1[1] - a1[1]);
  const factor = d0 > 1 && d1 > 0 ? d1 / d0 : 1;
  const [wx, wy] = screenToWorld(start, view, (a0[0] + b0[0]) / 2, (a0[1] + b0[1]) / 2);
  return placeAt(clampScale(start.scale * factor), view, wx, wy, (a1[0] + b1[0]) / 2, (a1[1] + b1[1]) / 2);
}

/** Zoom factor of a wheel event's deltaY (deltaMode 0 pixels, 1 lines, 2 pages). */
export function wheelFactor(deltaY, deltaMode = 0) {
  const px = deltaY * (deltaMode === 1 ? 16 : deltaMode === 2 ? 400 : 1);
  return Math.exp(-Math.max(-500, Math.min(500, px)) * 0.002);
}

/**
 * Index of the cell whose disc (diameter cellSize, at least `minRadius` world units for
 * clicking tiny cells) contains the world point (x, y), the nearest one if several; -1 if none.
 */
export function nearestCell(xy, count, x, y, cellSize, minRadius = 0) {
  const r = Math.max(cellSize / 2, minRadius);
  let best = -1;
  let bestD = r * r;
  for (let i = 0; i < count; i++) {
    const dx = xy[2 * i] - x;
    const dy = xy[2 * i + 1] - y;
    const d = dx * dx + dy * dy;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
