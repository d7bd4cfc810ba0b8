// node --test Tests/web/  — camera fit and easing of Public/camera.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentBounds, easeCamera, fitCamera, nearestCell, screenToWorld, worldToScreen } from '../../Public/camera.js';

const near = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test('bounds cover the discs and the spring center', () => {
  assert.deepEqual(contentBounds([], 20), { minX: -10, minY: -10, maxX: 10, maxY: 10 });
  assert.deepEqual(contentBounds([100, 50, 120, 80], 10), { minX: -5, minY: -5, maxX: 125, maxY: 85 });
  assert.deepEqual(contentBounds([-30, 40, NaN, 1e9], 0), { minX: -30, minY: 0, maxX: 0, maxY: 40 });
  // only `count` cells are read
  assert.deepEqual(contentBounds([1, 1, 500, 500], 2, 1), { minX: -1, minY: -1, maxX: 2, maxY: 2 });
});

test('the fit shows the bounds whole, centred, within the margin', () => {
  const view = { x: 0, y: 0, w: 800, h: 600 };
  const b = { minX: -200, minY: -100, maxX: 200, maxY: 100 };
  const cam = fitCamera(b, view, { margin: 20, minSpan: 10 });
  near(cam.cx, 0);
  near(cam.cy, 0);
  near(cam.scale, 760 / 400); // width-limited
  const [x0, y0] = worldToScreen(cam, view, b.minX, b.minY);
  const [x1, y1] = worldToScreen(cam, view, b.maxX, b.maxY);
  near(x0, 20);
  near(x1, 780);
  assert.ok(y0 >= 20 && y1 <= 580);
  // a tall layout is height-limited; an offset view (panel on the right) is respected
  const tall = fitCamera({ minX: 0, minY: 0, maxX: 10, maxY: 1000 }, { x: 0, y: 0, w: 500, h: 400 }, { margin: 0, minSpan: 1 });
  near(tall.scale, 0.4);
  const side = { x: 100, y: 50, w: 400, h: 300 };
  const c2 = fitCamera(b, side, { margin: 0, minSpan: 1 });
  const [sx, sy] = worldToScreen(c2, side, 0, 0);
  near(sx, 300);
  near(sy, 200);
  // a lone cell does not fill the screen
  const lone = fitCamera(contentBounds([0, 0], 20), view, { margin: 0, minSpan: 240 });
  near(lone.scale, 600 / 240);
  // degenerate views never give NaN or zero
  const z = fitCamera(b, { x: 0, y: 0, w: 0, h: 0 });
  assert.ok(Number.isFinite(z.scale) && z.scale > 0);
});

test('screen and world round-trip', () => {
  const cam = { cx: 12, cy: -7, scale: 2.5 };
  const view = { x: 10, y: 20, w: 640, h: 480 };
  const [sx, sy] = worldToScreen(cam, view, 33, 44);
  const [wx, wy] = screenToWorld(cam, view, sx, sy);
  near(wx, 33);
  near(wy, 44);
});

test('the camera eases toward the target and lands on it', () => {
  const target = { cx: 100, cy: -50, scale: 4 };
  let cam = { cx: 0, cy: 0, scale: 1 };
  let r = easeCamera(cam, target, 1 / 60);
  assert.equal(r.moving, true);
  assert.ok(r.camera.cx > 0 && r.camera.cx < 100);
  assert.ok(r.camera.scale > 1 && r.camera.scale < 4);
  let steps = 0;
  while (r.moving && steps < 1000) {
    cam = r.camera;
    r = easeCamera(cam, target, 1 / 60);
    steps++;
  }
  assert.equal(r.moving, false);
  assert.deepEqual(r.camera, target);
  assert.ok(steps > 10 && steps < 300, `${steps} steps`);
  // no camera yet: start at the target
  assert.deepEqual(easeCamera(null, target, 0.016), { camera: target, moving: false });
  // a zero dt does not move
  assert.deepEqual(easeCamera({ cx: 0, cy: 0, scale: 1 }, target, 0).camera, { cx: 0, cy: 0, scale: 1 });
});

test('nearest cell within its radius', () => {
  const xy = [0, 0, 30, 0, 34, 0];
  assert.equal(nearestCell(xy, 3, 1, 1, 20), 0);
  assert.equal(nearestCell(xy, 3, 33, 0, 20), 2);
  assert.equal(nearestCell(xy, 3, 31, 0, 20), 1);
  assert.equal(nearestCell(xy, 3, 0, 15, 20), -1);
  assert.equal(nearestCell(xy, 3, 0, 15, 20, 16), 0); // a larger click radius for tiny cells
  assert.equal(nearestCell([], 0, 0, 0, 20), -1);
});
