// The canvas follows the state. A frame from the server goes to the interpolator and the
// camera's fit; anything else the canvas shows (the membership, owners, pins, selection,
// the hovered and the dragged cell, params, the colour scheme, the moment of the past shown)
// invalidates the picture, and
// the renderer wakes the frame loop (frames.js). Each animation frame draws the interpolated
// scene (scene.js) and glides the strip; a big layout at rest (jiggling by hundredths of a
// pixel per step) is redrawn only once it moved a quarter of a device pixel.
import { maxDelta } from './interpolate.js';

const REDRAWN_BY = ['membership', 'owners', 'pins', 'selection', 'hover', 'data'];
const SCRUB_REST_MS = 250; // no new moment for this long: the handle rests, the view fits

export function createPainter({ state, frames, interp, scene, renderer, strip, perf }) {
  let lastT = 0;
  let wasMoving = false;
  let fresh = false; // a frame arrived since the last draw
  let drawnIds = null; // what the canvas shows: membership and positions
  let drawnXY = new Float64Array(0);

  state.on('positions', () => {
    interp.push(performance.now(), state.ids, state.xy);
    fresh = true;
    renderer.retarget();
    frames.wake();
  });
  state.on('params', () => {
    renderer.retarget();
    renderer.invalidate();
  });
  for (const type of REDRAWN_BY) state.on(type, renderer.invalidate);
  // the past shown, or live again: the fit follows what is drawn. While moments come (the
  // timeline's handle dragged) the view holds still, or jumps out at once when cells leave
  // it, and glides to their fit once the handle rests: each moment is drawn once, not again
  // at every animation frame of a glide.
  let rest = null;
  state.on('moment', () => {
    clearTimeout(rest);
    rest = null;
    if (state.moment !== null) {
      renderer.hold(true);
      rest = setTimeout(() => {
        rest = null;
        renderer.hold(false);
      }, SCRUB_REST_MS);
    } else {
      renderer.hold(false);
    }
    renderer.invalidate();
  });
  state.on('drag', () => {
    renderer.freeze(state.dragging !== null); // the camera holds still under a dragged cell
    renderer.invalidate();
  });
  state.on('theme', renderer.themeChanged);

  // Positions changed by a quarter of a device pixel or more since the last draw?
  function visiblyMoved() {
    const { ids, xy, count } = scene.scene;
    if (ids !== drawnIds || drawnXY.length < 2 * count) return true;
    const devicePxPerUnit = renderer.camera.scale * (window.devicePixelRatio || 1);
    return maxDelta(xy, drawnXY, 2 * count) * devicePxPerUnit >= 0.25;
  }

  function step(t) {
    const dt = lastT ? Math.min(0.1, (t - lastT) / 1000) : 1 / 60;
    const moving = scene.update(t);
    const changed = state.dragging !== null || ((moving || wasMoving || fresh) && visiblyMoved());
    const r = renderer.frame(dt, scene.scene, changed);
    if (r.drawn) {
      perf.drew(renderer.lastDraw.ms, renderer.lastDraw);
      const n = 2 * scene.scene.count;
      if (drawnXY.length < n) drawnXY = new Float64Array(n);
      drawnXY.set(scene.scene.xy.subarray(0, n));
      drawnIds = scene.scene.ids;
    }
    wasMoving = moving;
    fresh = false;
    const gliding = strip.frame(dt);
    const again = r.moving || moving || gliding;
    lastT = again ? t : 0;
    return again;
  }
  frames.drive(step);
}
