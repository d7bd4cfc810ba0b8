// Dot sizes of the page-dot strip: a cosine half-wave around the current dot that keeps
// the strip's total width constant (shared/DESIGN.md, "The page-dot strip").
// Pure math, no DOM: node's test runner imports it as it is.
//
//   d     = |i - current|                       (fractional while animating)
//   p     = pi * min(d, k-1) / (k-1)
//   alpha = 0.5*cos(p - pi) + 0.5               (0 at the current dot, 1 from the wave's end on)
//   size  = w * (1 - x*alpha),  x = (c*w - l) / (w * sum(alpha))   so that sum(size) = l
//
// When c*w <= l nothing shrinks. When the c dots cannot fit with every size >= min (or
// x > 1), a window of m < c dots around the current one is shown instead: the largest m
// whose sizes stay >= min, centred on current and clamped to [0, c-m], its sizes summing
// to l. Windows grow one dot at a time and x only grows with them, so "fits" is monotone
// in m and a binary search finds the largest one in O(k log c).
//
// Only for strips too narrow for any wave (roughly l < 2w, or min close to w) does no
// window work; then the smallest window that must shrink is shown at one uniform size
// l/m (sum still l), or, if even that is below min, floor(l/w) dots of size w.

function finite(v, fallback) {
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
}

function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * @param {{count:number,current:number,total:number,base:number,wave:number,min:number}} o
 *   count c dots, current (fractional) index, total strip width l, base (largest) size w,
 *   wave k dots in the half-wave (k >= 2), min smallest allowed size.
 * @returns {{first:number,sizes:number[]}} index of the first dot shown and the sizes shown.
 */
export function dotSizes({ count = 0, current = 0, total = 0, base = 1, wave = 2, min = 0 } = {}) {
  const c = Math.max(0, Math.floor(finite(count, 0)));
  if (c === 0) return { first: 0, sizes: [] };
  const l = Math.max(0, finite(total, 0));
  const w = Math.max(0, finite(base, 0));
  const k = Math.max(2, finite(wave, 2));
  const lo = clamp(finite(min, 0), 0, w);
  const cur = clamp(finite(current, 0), 0, c - 1);

  if (c * w <= l) return { first: 0, sizes: new Array(c).fill(w) };
  if (l <= 0) return { first: Math.round(cur), sizes: [] };

  const span = k - 1;
  const alpha = (d) => (d >= span ? 1 : 0.5 * Math.cos((Math.PI * d) / span - Math.PI) + 0.5);
  const firstOf = (m) => clamp(Math.round(cur - (m - 1) / 2), 0, c - m);

  // sum of alpha over dots [f, f+m): dots with |i - cur| < span are on the wave, every
  // other dot contributes exactly 1, so this costs O(min(k, m)) whatever c is.
  function alphaSum(f, m) {
    const last = f + m - 1;
    const waveLo = Math.max(f, Math.floor(cur - span) + 1);
    const waveHi = Math.min(last, Math.ceil(cur + span) - 1);
    let s = 0;
    let n = 0;
    for (let i = waveLo; i <= waveHi; i++) {
      s += alpha(Math.abs(i - cur));
      n++;
    }
    return s + (m - n);
  }

  // x of the window of m dots if every size stays >= lo and x <= 1, else null.
  const eps = 1e-9 * Math.max(1, w);
  function fit(m) {
    const need = m * w - l;
    if (need <= 0) return null;
    const f = firstOf(m);
    const s = alphaSum(f, m);
    if (!(s > 0)) return null;
    const x = need / (w * s);
    if (!(x <= 1 + 1e-12)) return null;
    const far = Math.max(cur - f, f + m - 1 - cur);
    const smallest = w * (1 - x * alpha(far));
    return smallest >= lo - eps ? { f, x } : null;
  }

  function build(m, { f, x }) {
    const sizes = new Array(m);
    for (let j = 0; j < m; j++) sizes[j] = Math.max(0, w * (1 - x * alpha(Math.abs(f + j - cur))));
    return { first: f, sizes };
  }

  const full = fit(c);
  if (full) return build(c, full);

  // smallest window that has to shrink; a single integer-current dot cannot shrink at all
  let low = Math.floor(l / w) + 1;
  let best = fit(low);
  if (!best && low === 1 && c >= 2) {
    low = 2;
    best = fit(low);
  }
  if (best) {
    let hi = c - 1; // fit(c) failed
    while (low < hi) {
      const mid = Math.ceil((low + hi) / 2);
      const r = fit(mid);
      if (r) {
        low = mid;
        best = r;
      } else {
        hi = mid - 1;
      }
    }
    return build(low, best);
  }

  // no wave fits: uniform sizes, still summing to l when they can stay >= min
  let m = Math.min(c, Math.floor(l / w) + 1);
  let size = l / m;
  if (size < lo - eps) {
    m = Math.max(1, Math.min(c, Math.floor(l / w)));
    size = Math.min(w, l / m);
  }
  return { first: firstOf(m), sizes: new Array(m).fill(size) };
}

/** Total of the sizes, compensated (Neumaier) so 100000 small sizes still add up exactly. */
export function sumSizes(sizes) {
  let s = 0;
  let comp = 0;
  for (const v of sizes) {
    const t = s + v;
    comp += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
    s = t;
  }
  return s + comp;
}
