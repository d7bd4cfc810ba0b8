// node --test Tests/web/  — camera fit, easing, zoom, pan and pinch of Public/camera.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_SCALE, MIN_SCALE, contentBounds, easeCamera, fitCamera, nearestCell, panBy, pinch, placeAt, screenToWorld, shows, wheelFactor, worldToScreen, zoomAt,
} from '../../Public/camera.js';

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

test('bounds shown whole in a view, or not', () => {
  const view = { x: 10, y: 0, w: 200, h: 100 };
  const cam = { cx: 0, cy: 0, scale: 1 }; // world x -100…100, y -50…50 on screen
  assert.ok(shows(cam, view, { minX: -100, minY: -50, maxX: 100, maxY: 50 }));
  assert.ok(shows(cam, view, { minX: -5, minY: -5, maxX: 5, maxY: 5 }));
  assert.ok(!shows(cam, view, { minX: -101, minY: 0, maxX: 0, maxY: 1 }), 'past the left edge');
  assert.ok(!shows(cam, view, { minX: 0, minY: 0, maxX: 1, maxY: 51 }), 'past the bottom');
  assert.ok(!shows({ ...cam, scale: 2 }, view, { minX: -60, minY: 0, maxX: 0, maxY: 1 }), 'zoomed in: no longer');
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

test('zoom about a point keeps the world point under it fixed', () => {
  const view = { x: 0, y: 0, w: 900, h: 600 };
  const cam = { cx: 40, cy: -20, scale: 1.5 };
  for (const [sx, sy] of [[450, 300], [0, 0], [812, 77]]) {
    for (const f of [2, 0.5, 1.1, 10]) {
      const before = screenToWorld(cam, view, sx, sy);
      const z = zoomAt(cam, view, sx, sy, f);
      near(z.scale, cam.scale * f);
      const after = screenToWorld(z, view, sx, sy);
      near(after[0], before[0], 1e-9);
      near(after[1], before[1], 1e-9);
    }
  }
  // clamped, and nonsense factors change nothing
  assert.equal(zoomAt(cam, view, 0, 0, 1e12).scale, MAX_SCALE);
  assert.equal(zoomAt(cam, view, 0, 0, 1e-12).scale, MIN_SCALE);
  assert.equal(zoomAt(cam, view, 0, 0, NaN).scale, cam.scale);
  assert.equal(zoomAt(cam, view, 0, 0, -2).scale, cam.scale);
});

test('pan moves the picture with the pointer', () => {
  const view = { x: 0, y: 0, w: 900, h: 600 };
  const cam = { cx: 0, cy: 0, scale: 2 };
  const p = panBy(cam, 30, -10);
  const [sx, sy] = worldToScreen(p, view, 0, 0);
  near(sx, 450 + 30);
  near(sy, 300 - 10);
  assert.equal(p.scale, 2);
});

test('placeAt shows a world point at a screen point', () => {
  const view = { x: 10, y: 20, w: 400, h: 300 };
  const c = placeAt(3, view, 7, 8, 100, 50);
  const [sx, sy] = worldToScreen(c, view, 7, 8);
  near(sx, 100);
  near(sy, 50);
});

test('pinch: the point between the fingers follows them, the scale their spread', () => {
  const view = { x: 0, y: 0, w: 800, h: 600 };
  const start = { cx: 5, cy: 5, scale: 1 };
  const a0 = [300, 300];
  const b0 = [500, 300];
  const mid = screenToWorld(start, view, 400, 300);
  // spread to twice the distance and move right by 50
  const c = pinch(start, view, a0, b0, [250, 300], [650, 300]);
  near(c.scale, 2);
  const [sx, sy] = worldToScreen(c, view, mid[0], mid[1]);
  near(sx, 450);
  near(sy, 300);
  // fingers on one spot: no zoom, no NaN
  const same = pinch(start, view, [1, 1], [1, 1], [2, 2], [2, 2]);
  assert.equal(same.scale, 1);
  assert.ok(Number.isFinite(same.cx) && Number.isFinite(same.cy));
});

test('wheel: down zooms out, up zooms in, lines and pages count more, no extremes', () => {
  assert.ok(wheelFactor(100) < 1);
  assert.ok(wheelFactor(-100) > 1);
  near(wheelFactor(100) * wheelFactor(-100), 1);
  near(wheelFactor(3, 1), wheelFactor(48));
  assert.ok(wheelFactor(1e9) > 0.3 && wheelFactor(-1e9) < 3);
  assert.equal(wheelFactor(0), 1);
});
