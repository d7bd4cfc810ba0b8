// One colour per client (who added a cell), the same in every viewer: the hue comes from
// the client id alone ("c7" -> 7 golden angles; any other string -> a hash), the lightness
// and chroma from the colour scheme, in OKLCH so every hue reads equally bright on the
// canvas. Cells of no known owner are grey. Pure, no DOM.
import { packRGB } from './raster.js';

const GOLDEN_ANGLE = 137.50776405003785;

// per scheme: the client colours' OKLCH lightness and chroma, and the neutral grey's lightness
const SCHEMES = {
  light: { L: 0.6, C: 0.16, neutral: 0.68 },
  dark: { L: 0.76, C: 0.14, neutral: 0.58 },
};

/** Hue in degrees [0, 360) for a client id. */
export function hueOf(client) {
  const s = String(client);
  const m = /^c(\d{1,15})$/.exec(s);
  if (m) return (Number(m[1]) * GOLDEN_ANGLE) % 360;
  // FNV-1a, so any other id still gets a stable hue
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 0) % 3600) / 10;
}

const gamma = (v) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);

function oklabToLinear(L, a, b) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** sRGB bytes [r, g, b] of an OKLCH colour; chroma is reduced until it fits the gamut. */
export function oklchToRGB(L, C, hueDeg) {
  const h = (hueDeg * Math.PI) / 180;
  const fits = (c) => oklabToLinear(L, c * Math.cos(h), c * Math.sin(h)).every((v) => v >= -1e-4 && v <= 1 + 1e-4);
  let c = C;
  if (!fits(c)) {
    let lo = 0;
    let hi = C;
    for (let i = 0; i < 20; i++) {
      const mid = (lo + hi) / 2;
      if (fits(mid)) lo = mid;
      else hi = mid;
    }
    c = lo;
  }
  return oklabToLinear(L, c * Math.cos(h), c * Math.sin(h))
    .map((v) => Math.round(255 * gamma(Math.min(1, Math.max(0, v)))));
}

/** [r, g, b] of a client's cells in `scheme` ('light' or 'dark'); null client: the neutral grey. */
export function clientRGB(client, scheme = 'light') {
  const s = SCHEMES[scheme] || SCHEMES.light;
  if (client === null || client === undefined || client === '') return oklchToRGB(s.neutral, 0, 0);
  return oklchToRGB(s.L, s.C, hueOf(client));
}

/** "#rrggbb" */
export function cssHex([r, g, b]) {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** [r, g, b] of the i-th group (groups in their sorted order): i golden angles, as clients. */
export function groupRGB(i, scheme = 'light') {
  const s = SCHEMES[scheme] || SCHEMES.light;
  return oklchToRGB(s.L, s.C, (i * GOLDEN_ANGLE + 30) % 360);
}

/** [r, g, b] of "#rrggbb", or null. */
export function hexRGB(text) {
  const m = /^#([0-9a-f]{6})$/i.exec(String(text));
  if (!m) return null;
  const v = parseInt(m[1], 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** The colour table of a list of [r, g, b] (slot i -> rgbs[i]): {packed, r, g, b, css} indexed by slot. */
export function paletteOf(rgbs) {
  const n = Math.max(1, rgbs.length);
  const packed = new Int32Array(n);
  const r = new Uint8Array(n);
  const g = new Uint8Array(n);
  const b = new Uint8Array(n);
  const css = new Array(n);
  for (let i = 0; i < n; i++) {
    const rgb = rgbs[i] || [128, 128, 128];
    [r[i], g[i], b[i]] = rgb;
    packed[i] = packRGB(rgb[0], rgb[1], rgb[2]);
    css[i] = cssHex(rgb);
  }
  return { packed, r, g, b, css };
}

/**
 * The colour table of a list of owners (slot i -> owners[i], slot 0 conventionally null):
 * {packed, r, g, b, css} indexed by slot.
 */
export function createPalette(owners, scheme = 'light') {
  return paletteOf((owners.length ? owners : [null]).map((o) => clientRGB(o, scheme)));
}
