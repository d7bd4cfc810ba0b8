// Pointer input on the canvas (mouse, pen and touch alike, through pointer events):
// - press a cell: select it; move 4 px: drag it (dragStart, dragMove, dragEnd)
// - tap the same cell twice within DOUBLE_TAP_MS: doubleTap (toggles its pin)
// - press the empty canvas and move: pan; two pointers: pinch zoom; wheel: zoom about the
//   pointer. These move the camera through the renderer (which then stays manual).
// - a mouse moving with no button down: hover (the cell under it, or null).
// - touch or pen held still on a cell for LONG_PRESS_MS: longPress (point at it); a tap on the
//   empty canvas: tapEmpty (nothing highlighted any more).
import { panBy, pinch, wheelFactor, zoomAt } from './camera.js';

const DRAG_PX = 4;
const PAN_PX = 3;
const DOUBLE_TAP_MS = 400;
const LONG_PRESS_MS = 550;

export function createPointers(canvas, renderer, h) {
  const down = new Map(); // pointerId -> [x, y] on the canvas, CSS px
  let press = null; // {pointerId, id, x, y, dragging}
  let pan = null; // {pointerId, x, y, moved}
  let pinching = null; // {a, b (pointer ids), start camera, a0, b0}
  let lastTap = null; // {id, t}
  let longPress = null; // the timer of a touch held on a cell

  function stopLongPress() {
    clearTimeout(longPress);
    longPress = null;
  }

  const at = (e) => renderer.toCanvas(e.clientX, e.clientY);

  function startPinch() {
    stopLongPress();
    const [a, b] = [...down.keys()];
    pinching = { a, b, start: renderer.camera, a0: down.get(a), b0: down.get(b) };
    press = null;
    pan = null;
  }

  function endDrag(cancelled) {
    if (press?.dragging) h.dragEnd(press.id, { cancelled });
    press = null;
  }

  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if (press?.dragging) return; // a second finger while dragging a cell: ignored
    down.set(e.pointerId, at(e));
    try {
      canvas.setPointerCapture(e.pointerId);
    } catch { /* the pointer is already gone */ }
    h.hover(null);
    if (down.size === 2) {
      startPinch();
      return;
    }
    if (down.size > 2) return;
    const id = h.cellAt(e.clientX, e.clientY);
    const [x, y] = down.get(e.pointerId);
    if (id !== null) {
      press = { pointerId: e.pointerId, id, x, y, dragging: false };
      h.select(id);
      if (e.pointerType !== 'mouse') {
        stopLongPress();
        longPress = setTimeout(() => {
          longPress = null;
          if (press?.id !== id || press.dragging) return;
          press.held = true; // its release is no tap
          h.longPress(id);
        }, LONG_PRESS_MS);
      }
    } else {
      pan = { pointerId: e.pointerId, x, y, moved: false };
    }
  });

  canvas.addEventListener('pointermove', (e) => {
    if (!down.has(e.pointerId)) {
      if (e.pointerType === 'mouse' && e.buttons === 0) h.hover(h.cellAt(e.clientX, e.clientY), e.clientX, e.clientY);
      return;
    }
    const p = at(e);
    down.set(e.pointerId, p);
    if (pinching) {
      const a1 = down.get(pinching.a);
      const b1 = down.get(pinching.b);
      if (a1 && b1) {
        renderer.setCamera(pinch(pinching.start, renderer.view(), pinching.a0, pinching.b0, a1, b1));
        h.cameraMoved();
      }
      return;
    }
    if (press && press.pointerId === e.pointerId) {
      if (!press.dragging) {
        if (Math.hypot(p[0] - press.x, p[1] - press.y) < DRAG_PX) return;
        press.dragging = true;
        stopLongPress();
        lastTap = null;
        h.dragStart(press.id);
      }
      h.dragMove(press.id, e.clientX, e.clientY);
      return;
    }
    if (pan && pan.pointerId === e.pointerId) {
      if (!pan.moved && Math.hypot(p[0] - pan.x, p[1] - pan.y) < PAN_PX) return;
      pan.moved = true;
      renderer.setCamera(panBy(renderer.camera, p[0] - pan.x, p[1] - pan.y));
      pan.x = p[0];
      pan.y = p[1];
      h.cameraMoved();
    }
  });

  function up(e) {
    if (!down.delete(e.pointerId)) return;
    stopLongPress();
    if (pinching) {
      if (e.pointerId === pinching.a || e.pointerId === pinching.b) {
        pinching = null;
        // the finger left on the glass goes on panning from where it is
        const [rest] = [...down.keys()];
        if (rest !== undefined) pan = { pointerId: rest, x: down.get(rest)[0], y: down.get(rest)[1], moved: true };
      }
      return;
    }
    if (press && press.pointerId === e.pointerId) {
      if (press.dragging) {
        endDrag(e.type === 'pointercancel');
      } else if (e.type === 'pointerup' && !press.held) {
        const now = e.timeStamp || performance.now();
        if (lastTap && lastTap.id === press.id && now - lastTap.t < DOUBLE_TAP_MS) {
          lastTap = null;
          h.doubleTap(press.id);
        } else {
          lastTap = { id: press.id, t: now };
        }
      }
      press = null;
    }
    if (pan && pan.pointerId === e.pointerId) {
      if (!pan.moved && e.type === 'pointerup') h.tapEmpty();
      pan = null;
    }
  }
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  canvas.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'mouse' && !down.has(e.pointerId)) h.hover(null);
  });

  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const [x, y] = at(e);
    renderer.setCamera(zoomAt(renderer.camera, renderer.view(), x, y, wheelFactor(e.deltaY, e.deltaMode)));
    h.cameraMoved();
  }, { passive: false });

  // the browser's own double-click (text selection, zoom) has nothing to do here
  canvas.addEventListener('dblclick', (e) => e.preventDefault());

  return {
    /** Let go of everything (connection lost): a drag in progress ends as cancelled. */
    cancel() {
      stopLongPress();
      endDrag(true);
      pan = null;
      pinching = null;
      down.clear();
    },
  };
}
