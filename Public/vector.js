// What the renderer draws with the 2D context rather than by stamping (render.js): cells
// (of their own radius, over their links) as arcs when discs are large (deep zoom), and the
// marks over the cells: pinned rings, the
// dragged cell on top, the hovered outline, the selected halo. `frame` is {ctx, dpr, cssW,
// cssH, colors}; (ox, oy) is the screen point of the world's origin, k the scale and r the
// cells' radius, in CSS px.
import { strokeLinks } from './linkdraw.js';

/**
 * The background, the origin cross, the links (`pairs`: index pairs into scene.xy, or null)
 * and every cell as an arc; returns how many cells are visible.
 */
export function drawArcs({ ctx, dpr, cssW, cssH, colors }, scene, ox, oy, k, r, pairs = null) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = colors.bg;
  ctx.fillRect(0, 0, cssW, cssH);
  ctx.strokeStyle = colors.origin;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(ox - 6, oy);
  ctx.lineTo(ox + 6, oy);
  ctx.moveTo(ox, oy - 6);
  ctx.lineTo(ox, oy + 6);
  ctx.stroke();
  const { xy, count, slots, palette, radii } = scene;
  if (pairs && pairs.length > 0) {
    ctx.strokeStyle = colors.link;
    ctx.lineWidth = 1;
    strokeLinks(ctx, pairs, xy, ox, oy, k, cssW, cssH);
  }
  const paths = [];
  let visible = 0;
  for (let i = 0; i < count; i++) {
    const x = ox + xy[2 * i] * k;
    const y = oy + xy[2 * i + 1] * k;
    const ri = radii && radii[i] > 0 ? radii[i] * k : r;
    if (!(x > -ri && x < cssW + ri && y > -ri && y < cssH + ri)) continue;
    const s = slots ? slots[i] : 0;
    const p = paths[s] || (paths[s] = new Path2D());
    p.moveTo(x + ri, y);
    p.arc(x, y, ri, 0, Math.PI * 2);
    visible++;
  }
  for (let s = 0; s < paths.length; s++) {
    if (!paths[s]) continue;
    ctx.fillStyle = palette.css[s] || palette.css[0];
    ctx.fill(paths[s]);
  }
  return visible;
}

function ring(ctx, x, y, radius, color, width) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.stroke();
}

/** Pinned rings, the dragged cell on top, the hovered outline, the selected halo. */
export function drawMarks({ ctx, dpr, colors }, scene, ox, oy, k, r) {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const { xy, index, palette, slots, radii } = scene;
  const at = (id) => {
    const i = id === null || id === undefined ? undefined : index.get(id);
    return i === undefined ? null : [ox + xy[2 * i] * k, oy + xy[2 * i + 1] * k, i];
  };
  const radiusOf = (p) => (radii && radii[p[2]] > 0 ? radii[p[2]] * k : r);
  const pinWidth = Math.max(1.5, Math.min(3, r * 0.25));
  for (const id of scene.pinned) {
    const p = at(id);
    if (!p) continue;
    ring(ctx, p[0], p[1], Math.max(radiusOf(p) + pinWidth / 2, 3), colors.pinned, pinWidth);
  }
  const d = at(scene.draggingId);
  if (d) {
    ctx.fillStyle = palette.css[slots ? slots[d[2]] : 0] || palette.css[0];
    ctx.beginPath();
    ctx.arc(d[0], d[1], radiusOf(d), 0, Math.PI * 2);
    ctx.fill();
    if (scene.pinned.has(scene.draggingId)) ring(ctx, d[0], d[1], Math.max(radiusOf(d) + pinWidth / 2, 3), colors.pinned, pinWidth);
  }
  const h = scene.hoveredId !== scene.selectedId ? at(scene.hoveredId) : null;
  if (h) ring(ctx, h[0], h[1], Math.max(radiusOf(h), 2) + 2, colors.hover, 1.5);
  const s = at(scene.selectedId);
  if (s) {
    const rs = radiusOf(s);
    if (rs < 2.5) {
      ctx.fillStyle = colors.selected;
      ctx.beginPath();
      ctx.arc(s[0], s[1], Math.max(rs, 2), 0, Math.PI * 2);
      ctx.fill();
    }
    ring(ctx, s[0], s[1], Math.max(rs, 2) + 4, colors.selected, 2);
  }
}
