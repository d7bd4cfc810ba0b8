// Drawing the layout on the canvas: a HiDPI backing store, the camera (auto: eases toward
// the fit of the cells; manual: wherever the user zoomed and panned it), and the cells.
//
// Why stamping: measured in headless Chromium without a GPU (--headless=new --disable-gpu,
// 1280x800, dpr 1, this 2-core machine, load ~2.5), requestAnimationFrame rate over 3 s on a
// bench page of random drifting cells in four colours (JS ms per frame in brackets):
//   50k cells r 1.6 px: a path of arcs per colour  7 fps (37 ms);  stamped 60 fps (7.2 ms)
//   10k cells r 3 px:   arcs                      52 fps (4.1 ms);  stamped 60 fps (1.8 ms)
//   5k cells r 24 px:   arcs                      17 fps (2.3 ms);  stamped 60 fps (10.9 ms)
//   300 cells r 100 px: arcs                      60 fps (0.4 ms);  stamped 60 fps (3.4 ms)
//   (the task's earlier figures: 10k arcs ~23 fps, a drawImage sprite per cell ~4 fps)
// So cells are stamped (raster.js: antialiased masks per radius and 4x4 sub-pixel phase,
// interior spans filled, edge pixels blended) into an ImageData put with one putImageData;
// the few special cells (pinned, selected, hovered, dragged) are drawn over it with the 2D
// context (vector.js). Links are drawn into the same buffer first, under the cells, but
// where dense cells will hide them (linkdraw.js, cellcover.js); from 5000 links the draw
// starts from a copy of the last draw's links while no cell moved half a pixel since
// (linklayer.js). WebGL was measured for them
// too: without a GPU, Chromium runs it on SwiftShader, where 200k links as GL_LINES with
// their pixels read back took 200-500 ms a frame (the readback alone 20 ms), against under
// 20 ms here; so the CPU draws them. Cells of their own size are stamped a radius at a
// time (radiusgroups.js);
// labels go over the cells with the 2D context (labels.js). Discs over ARC_RADIUS device px (deep zoom: few fit on screen) are
// arcs, as fast there and without building 16 large masks at every step of a zoom.
// Whole-page figures are in Tests/web/README.md.
//
// The camera's fit follows `state` (its positions and cellSize, or the moment of the past it
// shows) and the part of the canvas
// the panel leaves free (setInsets). Whenever something to draw changed, the renderer calls
// onChange (the page's frame loop wakes) and draws it at the next frame().
import { contentBounds, easeCamera, fitCamera, nearestCell, screenToWorld, shows, worldToScreen } from './camera.js';
import { stampCells } from './cellstamp.js';
import { createMaskCache, packRGB } from './raster.js';
import { drawArcs, drawMarks } from './vector.js';
import { createRadiusGroups } from './radiusgroups.js';
import { createLinkIndex, drawLinks } from './linkdraw.js';
import { createCellCover } from './cellcover.js';
import { createLinkLayer } from './linklayer.js';
import { drawLabels } from './labels.js';

const ARC_RADIUS = 128; // device px
const MIN_RADIUS = 0.6; // CSS px: the smallest cell still shows
const COVER_LINKS = 5000; // from this many links, those under dense cells are skipped (cellcover.js)
const HELD_SPARE = 0.1; // a held view that must take in more cells: a tenth more each way

// [r, g, b] of a CSS colour, as the 2D context normalizes it
function parseColor(ctx, css, fallback) {
  ctx.fillStyle = fallback;
  ctx.fillStyle = css;
  const s = ctx.fillStyle;
  if (s[0] === '#') return [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
  const m = s.match(/[\d.]+/g);
  return m ? m.slice(0, 3).map(Number) : [255, 255, 255];
}

// overlays: functions (frame, scene, ox, oy, k, r) -> true while they animate, drawn last
// (the highlight of the selection and the people's pointers: focus.js)
export function createRenderer(canvas, state, { onChange = () => {}, overlays = [] } = {}) {
  let ctx = canvas.getContext('2d', { alpha: false });
  const masks = createMaskCache();
  const radiusGroups = createRadiusGroups();
  const linkPairs = createLinkIndex();
  const cellCover = createCellCover();
  const linkLayer = createLinkLayer();
  let cssW = 1;
  let cssH = 1;
  let dpr = 1;
  let img = null;
  let buf = null;
  let camera = null;
  let target = { cx: 0, cy: 0, scale: 1 };
  let mode = 'auto';
  let frozen = false; // a cell is dragged: the camera holds still under it
  let held = false; // the timeline's handle moves through the past: the view holds still
  let dirty = true;
  let colors = readColors();
  let lastDraw = { ms: 0, visible: 0, linksMs: 0, cellsMs: 0, putMs: 0, labelsMs: 0 };
  let split = { linksMs: 0, cellsMs: 0, putMs: 0, linksKept: null }; // of the last drawStamped (perf.js)
  let insets = { top: 0, right: 0, bottom: 0, left: 0 };
  let animating = false; // an overlay asked for another frame
  let picturing = false; // picture() draws

  function touch() {
    dirty = true;
    onChange();
  }

  function readColors() {
    const cs = getComputedStyle(canvas);
    const v = (name, fallback) => cs.getPropertyValue(name).trim() || fallback;
    const bg = v('--canvas-bg', '#ffffff');
    const bgRGB = parseColor(ctx, bg, '#ffffff');
    const origin = parseColor(ctx, v('--origin', '#888888'), '#888888');
    return {
      bg,
      bgPacked: packRGB(...bgRGB),
      originPacked: packRGB(...origin.map((c, i) => Math.round((c + bgRGB[i]) / 2))),
      origin: v('--origin', 'rgba(127,127,127,0.5)'),
      pinned: v('--cell-pinned', '#f59e0b'),
      selected: v('--cell-selected', '#e11d48'),
      hover: v('--fg', '#1d2330'),
      link: v('--link', '#64748b'),
      linkPacked: packRGB(...parseColor(ctx, v('--link', '#64748b'), '#64748b')),
    };
  }

  /** The part of the canvas the layout may use (not under the panel), in CSS px. */
  function view() {
    const i = insets;
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
    if (!img || img.width !== bw || img.height !== bh) {
      img = ctx.createImageData(bw, bh);
      buf = new Int32Array(img.data.buffer);
    }
    touch();
    retarget();
  }

  function retarget() {
    if (frozen || mode !== 'auto') return;
    // what is drawn: the live layout, or the moment of the past shown (rewind.js)
    const shown = state.moment ?? state;
    const size = Number(shown.params.cellSize) || Number(state.params.cellSize) || 20;
    const b = contentBounds(shown.xy, size, shown.ids.length);
    const fit = (bounds) => fitCamera(bounds, view(), { margin: 28, minSpan: size * 12 });
    if (held && camera !== null) {
      // held: still while every cell is in view; else at once (no glide) to a fit with room
      // to spare, so the next moments fit it too
      if (shows(camera, view(), b)) return;
      const gx = (b.maxX - b.minX) * HELD_SPARE;
      const gy = (b.maxY - b.minY) * HELD_SPARE;
      target = fit({ minX: b.minX - gx, minY: b.minY - gy, maxX: b.maxX + gx, maxY: b.maxY + gy });
      camera = { ...target };
    } else {
      target = fit(b);
      camera ??= { ...target };
    }
    touch();
  }

  // the spring centre: a small cross under the cells
  function originInto(x, y) {
    const { width: w, height: h } = img;
    const n = Math.round(6 * dpr);
    const lw = Math.max(1, Math.round(dpr));
    const cx = Math.round(x);
    const cy = Math.round(y);
    const c = colors.originPacked;
    for (let t = 0; t < lw; t++) {
      for (let d = -n; d <= n; d++) {
        const hx = cx + d;
        const hy = cy + t;
        if (hx >= 0 && hx < w && hy >= 0 && hy < h) buf[hy * w + hx] = c;
        const vx = cx + t;
        const vy = cy + d;
        if (vx >= 0 && vx < w && vy >= 0 && vy < h) buf[vy * w + vx] = c;
      }
    }
  }

  function drawStamped(scene, ox, oy, k, r) {
    const t0 = performance.now();
    const target = { buf, w: img.width, h: img.height };
    const pairs = scene.data.links.size > 0 ? linkPairs(scene.ids, scene.index, scene.data) : null;
    const many = pairs !== null && pairs.length >= 2 * COVER_LINKS;
    const layered = many && !picturing; // a picture (PNG) draws its links once, on a buffer of its own
    // many links: the last draw's layer of them while no cell moved half a pixel (linklayer.js)
    const view = { xy: scene.xy, count: scene.count, ox: ox * dpr, oy: oy * dpr, k: k * dpr };
    const key = many ? { pairs, w: img.width, h: img.height, size: scene.cellSize, radii: scene.radii, bg: colors.bgPacked, link: colors.linkPacked, origin: colors.originPacked, dpr } : null;
    let linksKept = null;
    let t1 = t0;
    if (layered && linkLayer.restore(buf, key, view)) {
      linksKept = 1;
    } else {
      buf.fill(colors.bgPacked);
      originInto(ox * dpr, oy * dpr);
      t1 = performance.now();
      if (pairs !== null) {
        const cover = !many ? null : cellCover(img.width, img.height, {
          ...view, radius: r * dpr, radii: scene.radii, minRadius: MIN_RADIUS * dpr,
        });
        drawLinks(target, pairs, scene.xy, ox * dpr, oy * dpr, k * dpr, colors.linkPacked, cover);
      }
      if (layered) {
        linkLayer.keep(buf, key, view);
        linksKept = 0;
      }
    }
    const t2 = performance.now();
    const cells = { ox: ox * dpr, oy: oy * dpr, k: k * dpr, palette: scene.palette, cache: masks };
    let visible = 0;
    if (!scene.radii) {
      visible = stampCells(target, { ...cells, xy: scene.xy, count: scene.count, radius: r * dpr, slots: scene.slots });
    } else {
      // one radius at a time, the largest first (cells of their own size: radiusgroups.js)
      for (const g of radiusGroups(scene)) {
        const radius = Math.max(MIN_RADIUS, g.r * k) * dpr;
        visible += stampCells(target, { ...cells, xy: g.xy, count: g.count, radius, slots: g.slots });
      }
    }
    const t3 = performance.now();
    ctx.putImageData(img, 0, 0);
    split = { linksMs: t2 - t1, cellsMs: t1 - t0 + t3 - t2, putMs: performance.now() - t3, linksKept };
    return visible;
  }

  function draw(scene) {
    const t0 = performance.now();
    const cam = camera || target;
    const v = view();
    const k = cam.scale;
    const ox = v.x + v.w / 2 - cam.cx * k;
    const oy = v.y + v.h / 2 - cam.cy * k;
    const r = Math.max(MIN_RADIUS, ((Number(scene.cellSize) || 20) / 2) * k);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    const frame = { ctx, dpr, cssW, cssH, colors };
    split = { linksMs: null, cellsMs: null, putMs: null, linksKept: null }; // arcs: links and cells in one
    const visible = r * dpr > ARC_RADIUS
      ? drawArcs(frame, scene, ox, oy, k, r, scene.data.links.size > 0 ? linkPairs(scene.ids, scene.index, scene.data) : null)
      : drawStamped(scene, ox, oy, k, r);
    const t1 = performance.now();
    drawLabels(frame, scene, ox, oy, k, r);
    const labelsMs = performance.now() - t1;
    drawMarks(frame, scene, ox, oy, k, r);
    animating = false;
    for (const overlay of overlays) animating = overlay(frame, scene, ox, oy, k, r) || animating;
    lastDraw = { ms: performance.now() - t0, visible, ...split, labelsMs };
  }

  /**
   * The view as drawn now, at `ratio` device pixels per CSS pixel (the screen's, or 2 or 4
   * for print), on a canvas of its own: the picture the panel saves as PNG.
   */
  function picture(scene, ratio) {
    const out = document.createElement('canvas');
    out.width = Math.max(1, Math.round(cssW * ratio));
    out.height = Math.max(1, Math.round(cssH * ratio));
    const saved = { ctx, img, buf, dpr };
    ctx = out.getContext('2d', { alpha: false });
    dpr = ratio;
    img = ctx.createImageData(out.width, out.height);
    buf = new Int32Array(img.data.buffer);
    picturing = true;
    try {
      draw(scene);
    } finally {
      picturing = false;
      ({ ctx, img, buf, dpr } = saved);
      touch();
    }
    return out;
  }

  return {
    /** The canvas's size (or the pixel ratio) changed. */
    resize,
    /** The cells moved (or their size changed): the fit follows them (auto mode). */
    retarget,
    /** The part of the canvas not under the panel changed: {top, right, bottom, left}, CSS px. */
    setInsets(next) {
      insets = next;
      retarget();
    },
    /** Something to draw changed (selection, pins, colours, the hovered or dragged cell). */
    invalidate: touch,
    /** The colour scheme changed: read the colours again. */
    themeChanged() {
      colors = readColors();
      touch();
    },
    /** Hold the camera still (while a cell is dragged), or let it follow again. */
    freeze(on) {
      frozen = on;
      if (!on) retarget();
    },
    /**
     * Hold the fit where it is while moments of the past follow each other (a gliding camera
     * redraws every animation frame, each a whole draw) unless cells leave the view, or let it
     * follow the cells again.
     */
    hold(on) {
      held = on;
      retarget();
    },
    /** 'auto' (follows the fit) or 'manual' (the user zoomed or panned). */
    get mode() {
      return mode;
    },
    /** The camera drawn now ({cx, cy, scale}) and the view it is for. */
    get camera() {
      return { ...(camera || target) };
    },
    view,
    /** Put the camera somewhere (zoom, pan, pinch): manual mode, no easing. */
    setCamera(cam) {
      if (!(cam && Number.isFinite(cam.cx) && Number.isFinite(cam.cy) && cam.scale > 0)) return;
      mode = 'manual';
      camera = { cx: cam.cx, cy: cam.cy, scale: cam.scale };
      target = { ...camera };
      touch();
    },
    /** Back to following the fit (eased). */
    fit() {
      mode = 'auto';
      retarget();
    },
    /** Glide the camera to `cam` ({cx, cy, scale}) and stay there: manual mode. */
    flyTo(cam) {
      if (!(cam && Number.isFinite(cam.cx) && Number.isFinite(cam.cy) && cam.scale > 0)) return;
      mode = 'manual';
      camera ??= { ...target };
      target = { cx: cam.cx, cy: cam.cy, scale: cam.scale };
      touch();
    },
    /**
     * The camera that frames world `bounds` ({minX, minY, maxX, maxY}) in the free part of the
     * canvas, showing at least `minSpan` world units.
     */
    framing(bounds, minSpan) {
      return fitCamera(bounds, view(), { margin: 48, minSpan });
    },
    picture,
    /** The canvas's size in CSS px. */
    get size() {
      return { cssW, cssH };
    },
    /** The colours the canvas draws with now (the colour scheme's). */
    get colors() {
      return colors;
    },
    /**
     * One animation frame: ease the camera, draw `scene` if needed. Returns true while the
     * camera moves. scene: {ids, index, xy, count, cellSize, slots, palette, pinned,
     * selectedId, hoveredId, draggingId}.
     */
    frame(dt, scene, force = false) {
      const eased = easeCamera(camera, target, dt, { size: Math.max(cssW, cssH) });
      const moved = eased.moving || camera === null || eased.camera.scale !== camera.scale
        || eased.camera.cx !== camera.cx || eased.camera.cy !== camera.cy;
      camera = eased.camera;
      if (moved || dirty || force || animating) {
        dirty = false;
        draw(scene);
        return { moving: eased.moving || animating, drawn: true };
      }
      return { moving: eased.moving, drawn: false };
    },
    /**
     * Time (ms) and visible cells of the last draw, and its split (ms): linksMs, cellsMs
     * (the background and the stamping), putMs (putImageData), labelsMs; the
     * first three null when the cells were arcs (deep zoom).
     */
    get lastDraw() {
      return lastDraw;
    },
    /** World point under a client position. */
    toWorld(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      return screenToWorld(camera || target, view(), clientX - rect.left, clientY - rect.top);
    },
    /** Canvas (CSS px) position of a client position. */
    toCanvas(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      return [clientX - rect.left, clientY - rect.top];
    },
    /** Client position of a world point (for tests and tooltips). */
    toClient(x, y) {
      const rect = canvas.getBoundingClientRect();
      const [sx, sy] = worldToScreen(camera || target, view(), x, y);
      return [sx + rect.left, sy + rect.top];
    },
    /** Index (in scene) of the cell under a client position, -1 if none. */
    hit(clientX, clientY, scene) {
      const [x, y] = this.toWorld(clientX, clientY);
      const k = (camera || target).scale;
      const size = Number(scene.cellSize) || 20;
      return nearestCell(scene.xy, scene.count, x, y, size, 6 / k);
    },
  };
}
