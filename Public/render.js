// Drawing the layout on the canvas: a HiDPI backing store, a camera that eases toward the
// fit of the cells' bounds, and the cells as discs (plain, pinned ring, selected halo).
// The camera math is in camera.js; this file owns the canvas.
import { contentBounds, easeCamera, fitCamera, nearestCell, screenToWorld, worldToScreen } from './camera.js';

export function createRenderer(canvas, { insets = () => ({ top: 0, right: 0, bottom: 0, left: 0 }) } = {}) {
  const ctx = canvas.getContext('2d', { alpha: false });
  let cssW = 1;
  let cssH = 1;
  let dpr = 1;
  let camera = null;
  let target = { cx: 0, cy: 0, scale: 1 };
  let frozen = false;
  let dirty = true;
  let colors = readColors();

  function readColors() {
    const cs = getComputedStyle(canvas);
    const v = (name, fallback) => cs.getPropertyValue(name).trim() || fallback;
    return {
      bg: v('--canvas-bg', '#ffffff'),
      cell: v('--cell', '#3b82f6'),
      pinned: v('--cell-pinned', '#f59e0b'),
      selected: v('--cell-selected', '#e11d48'),
      origin: v('--origin', 'rgba(127,127,127,0.5)'),
    };
  }

  /** The part of the canvas the layout may use (not under the panel), in CSS px. */
  function view() {
    const i = insets();
    const w = Math.max(1, cssW - i.left - i.right);
    const h = Math.max(1, cssH - i.top - i.bottom);
    return { x: i.left, y: i.top, w, h };
  }

  function resize() {
    const rect = canvas.getBoundingClientRect();
    dpr = window.devicePixelRatio || 1;
    cssW = Math.max(1, rect.width);
    cssH = Math.max(1, rect.height);
    const bw = Math.max(1, Math.round(cssW * dpr));
    const bh = Math.max(1, Math.round(cssH * dpr));
    if (canvas.width !== bw) canvas.width = bw;
    if (canvas.height !== bh) canvas.height = bh;
    dirty = true;
  }

  function retarget(state) {
    if (frozen) return;
    const size = Number(state.params.cellSize) || 20;
    const b = contentBounds(state.xy, size, state.ids.length);
    target = fitCamera(b, view(), { margin: 28, minSpan: size * 12 });
    if (!camera) camera = { ...target };
    dirty = true;
  }

  function draw(state) {
    const c = colors;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = c.bg;
    ctx.fillRect(0, 0, cssW, cssH);
    const cam = camera || target;
    const v = view();
    const k = cam.scale;
    const ox = v.x + v.w / 2 - cam.cx * k;
    const oy = v.y + v.h / 2 - cam.cy * k;

    // the spring center
    ctx.strokeStyle = c.origin;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(ox - 6, oy);
    ctx.lineTo(ox + 6, oy);
    ctx.moveTo(ox, oy - 6);
    ctx.lineTo(ox, oy + 6);
    ctx.stroke();

    const n = state.ids.length;
    const xy = state.xy;
    if (n === 0 || xy.length < 2 * n) return;
    const r = Math.max(0.6, ((Number(state.params.cellSize) || 20) / 2) * k);
    const pinned = state.pinned;
    const selected = state.selectedId;

    // plain cells: one path for all (tiny ones as squares, far cheaper than arcs)
    ctx.fillStyle = c.cell;
    ctx.beginPath();
    const tiny = r < 1.5;
    for (let i = 0; i < n; i++) {
      const id = state.ids[i];
      if (pinned.size && pinned.has(id)) continue;
      const x = ox + xy[2 * i] * k;
      const y = oy + xy[2 * i + 1] * k;
      if (tiny) {
        ctx.rect(x - r, y - r, 2 * r, 2 * r);
      } else {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, Math.PI * 2);
      }
    }
    ctx.fill();

    // pinned cells: a ring around a lighter disc
    if (pinned.size) {
      ctx.beginPath();
      for (const id of pinned) {
        const i = state.index.get(id);
        if (i === undefined) continue;
        const x = ox + xy[2 * i] * k;
        const y = oy + xy[2 * i + 1] * k;
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, Math.PI * 2);
      }
      ctx.globalAlpha = 0.35;
      ctx.fillStyle = c.pinned;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.strokeStyle = c.pinned;
      ctx.lineWidth = Math.max(1.5, Math.min(4, r * 0.3));
      ctx.stroke();
    }

    // the selected cell: its own colour and a halo
    const si = selected === null ? undefined : state.index.get(selected);
    if (si !== undefined) {
      const x = ox + xy[2 * si] * k;
      const y = oy + xy[2 * si + 1] * k;
      ctx.fillStyle = c.selected;
      ctx.beginPath();
      ctx.arc(x, y, Math.max(r, 2), 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = c.selected;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(x, y, Math.max(r, 2) + 4, 0, Math.PI * 2);
      ctx.stroke();
      if (pinned.has(selected)) {
        ctx.strokeStyle = c.pinned;
        ctx.lineWidth = Math.max(1.5, Math.min(4, r * 0.3));
        ctx.beginPath();
        ctx.arc(x, y, Math.max(r, 2), 0, Math.PI * 2);
        ctx.stroke();
      }
    }
  }

  return {
    resize,
    retarget,
    /** Something to draw changed (positions, selection, pins, colours). */
    invalidate() {
      dirty = true;
    },
    themeChanged() {
      colors = readColors();
      dirty = true;
    },
    /** Hold the camera still (while a cell is dragged), or let it follow again. */
    freeze(on, state) {
      frozen = on;
      if (!on && state) retarget(state);
    },
    /** One animation frame: ease the camera, draw if needed. Returns true while moving. */
    frame(dt, state) {
      const eased = easeCamera(camera, target, dt, { size: Math.max(cssW, cssH) });
      const moved = eased.moving || camera === null || eased.camera.scale !== camera.scale
        || eased.camera.cx !== camera.cx || eased.camera.cy !== camera.cy;
      camera = eased.camera;
      if (moved || dirty) {
        dirty = false;
        draw(state);
      }
      return eased.moving;
    },
    /** World point under a pointer event's client position. */
    toWorld(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      return screenToWorld(camera || target, view(), clientX - rect.left, clientY - rect.top);
    },
    /** Client position of a world point (for tests and tooltips). */
    toClient(x, y) {
      const rect = canvas.getBoundingClientRect();
      const [sx, sy] = worldToScreen(camera || target, view(), x, y);
      return [sx + rect.left, sy + rect.top];
    },
    /** Index of the cell under a client position, -1 if none. */
    hit(clientX, clientY, state) {
      const [x, y] = this.toWorld(clientX, clientY);
      const k = (camera || target).scale;
      const size = Number(state.params.cellSize) || 20;
      return nearestCell(state.xy, state.ids.length, x, y, size, 6 / k);
    },
  };
}
