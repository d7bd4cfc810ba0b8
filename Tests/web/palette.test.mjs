// node --test Tests/web/  — client colours of Public/palette.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientRGB, createPalette, cssHex, hueOf, oklchToRGB } from '../../Public/palette.js';

// WCAG contrast of two sRGB byte colours
function luminance([r, g, b]) {
  const lin = (c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const LIGHT_BG = [0xfb, 0xfb, 0xfc]; // --canvas-bg of style.css (its :root)
const DARK_BG = [0x11, 0x15, 0x1c];

test('client ids "cN" get N golden angles of hue; other ids a stable hash', () => {
  assert.equal(hueOf('c0'), 0);
  assert.ok(Math.abs(hueOf('c1') - 137.50776) < 1e-4);
  assert.ok(Math.abs(hueOf('c7') - ((7 * 137.50776405003785) % 360)) < 1e-9);
  for (const id of ['server', 'alice', 'c', 'c1x', '']) {
    const h = hueOf(id);
    assert.ok(h >= 0 && h < 360);
    assert.equal(hueOf(id), h);
  }
  assert.notEqual(hueOf('alice'), hueOf('bob'));
  // neighbouring clients are far apart on the wheel
  for (let n = 1; n < 50; n++) {
    const d = Math.abs(hueOf(`c${n}`) - hueOf(`c${n + 1}`));
    assert.ok(Math.min(d, 360 - d) > 90, `c${n}/c${n + 1}`);
  }
});

test('every viewer computes the same colour for a client', () => {
  assert.deepEqual(clientRGB('c3', 'light'), clientRGB('c3', 'light'));
  assert.deepEqual(clientRGB('c3', 'dark'), clientRGB('c3', 'dark'));
  assert.notDeepEqual(clientRGB('c3', 'light'), clientRGB('c4', 'light'));
});

test('colours stay in gamut and legible on the light and the dark canvas, at every hue', () => {
  for (let h = 0; h < 360; h += 5) {
    const light = oklchToRGB(0.6, 0.16, h);
    const dark = oklchToRGB(0.76, 0.14, h);
    for (const c of [...light, ...dark]) assert.ok(Number.isInteger(c) && c >= 0 && c <= 255);
  }
  for (let n = 0; n < 100; n++) {
    const id = `c${n}`;
    assert.ok(contrast(clientRGB(id, 'light'), LIGHT_BG) >= 2.5, `${id} on light: ${contrast(clientRGB(id, 'light'), LIGHT_BG)}`);
    assert.ok(contrast(clientRGB(id, 'dark'), DARK_BG) >= 4, `${id} on dark: ${contrast(clientRGB(id, 'dark'), DARK_BG)}`);
  }
});

test('no owner is a neutral grey, distinct from the background', () => {
  for (const scheme of ['light', 'dark']) {
    const [r, g, b] = clientRGB(null, scheme);
    assert.ok(Math.abs(r - g) <= 1 && Math.abs(g - b) <= 1, `${scheme}: ${r},${g},${b}`);
    assert.ok(contrast([r, g, b], scheme === 'light' ? LIGHT_BG : DARK_BG) >= 1.8);
  }
});

test('a palette holds packed, per-channel and CSS forms of each slot', () => {
  const p = createPalette([null, 'c1', 'c2'], 'dark');
  assert.equal(p.packed.length, 3);
  for (let i = 0; i < 3; i++) {
    const rgb = [p.r[i], p.g[i], p.b[i]];
    assert.equal(p.css[i], cssHex(rgb));
    assert.deepEqual([...new Uint8Array(Int32Array.of(p.packed[i]).buffer)], [...rgb, 255]);
  }
  assert.deepEqual(rgbOf(p, 1), clientRGB('c1', 'dark'));
  assert.equal(cssHex([255, 0, 16]), '#ff0010');
  assert.equal(createPalette([]).packed.length, 1);
});

const rgbOf = (p, i) => [p.r[i], p.g[i], p.b[i]];
