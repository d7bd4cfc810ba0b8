// node --test Tests/web/  — the page-dot strip math of Public/dots.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dotSizes, sumSizes } from '../../Public/dots.js';

const COUNTS = [...Array.from({ length: 200 }, (_, i) => i + 1), 1000, 10000, 100000];
const CONFIGS = [
  { total: 600, base: 14, wave: 9, min: 3 },
  { total: 600, base: 14, wave: 9, min: 0 },
  { total: 300, base: 12, wave: 5, min: 2 },
  { total: 1000, base: 20, wave: 2, min: 0 },
  { total: 150, base: 10, wave: 12, min: 1 },
  { total: 87.5, base: 7, wave: 3, min: 0.5 },
];
const currentsFor = (c) => [...new Set([0, 0.5, 1, c / 3, (c - 1) / 2 + 0.25, c - 1.5, c - 1, c + 5, -3])];
const clampCur = (cur, c) => Math.min(Math.max(cur, 0), c - 1);

// The formula of DESIGN.md, written naively (O(m)) as a reference.
function alphaOf(d, k) {
  const p = (Math.PI * Math.min(d, k - 1)) / (k - 1);
  return 0.5 * Math.cos(p - Math.PI) + 0.5;
}
function naiveWindow(c, cur, m, { total: l, base: w, wave: k }) {
  const first = Math.min(Math.max(Math.round(cur - (m - 1) / 2), 0), c - m);
  let s = 0;
  for (let i = first; i < first + m; i++) s += alphaOf(Math.abs(i - cur), k);
  const x = (m * w - l) / (w * s);
  const sizes = [];
  for (let i = first; i < first + m; i++) sizes.push(w * (1 - x * alphaOf(Math.abs(i - cur), k)));
  return { first, x, sizes };
}

function checkProperties(c, current, cfg) {
  const { total, base, min } = cfg;
  const tag = JSON.stringify({ c, current, ...cfg });
  const { first, sizes } = dotSizes({ count: c, current, ...cfg });
  const m = sizes.length;
  const cur = clampCur(current, c);
  const rc = Math.round(cur);
  for (const s of sizes) assert.ok(Number.isFinite(s), `finite ${tag}`);
  if (c * base <= total) {
    assert.equal(first, 0, tag);
    assert.equal(m, c, `everything fits: all dots shown ${tag}`);
    assert.ok(sizes.every((s) => s === base), `nothing shrinks ${tag}`);
    return;
  }
  assert.ok(Math.abs(sumSizes(sizes) - total) <= 1e-9, `sum ${sumSizes(sizes)} != ${total} ${tag}`);
  assert.ok(m >= 1 && m <= c, `length ${tag}`);
  assert.ok(Number.isInteger(first) && first >= 0 && first + m <= c, `window inside ${tag}`);
  assert.ok(first <= rc && rc < first + m, `window contains current ${tag}`);
  if (first > 0 && first + m < c) {
    assert.ok(Math.abs(first + (m - 1) / 2 - cur) <= 1, `window centred ${tag}`);
  }
  const max = Math.max(...sizes.slice(Math.max(0, rc - first - 50), rc - first + 50));
  assert.ok(sizes[rc - first] >= max - 1e-12, `largest at current ${tag}`);
  for (let i = rc - first + 1; i < m; i++) assert.ok(sizes[i] <= sizes[i - 1] + 1e-12, `shrinks right ${tag} @${i}`);
  for (let i = rc - first - 1; i >= 0; i--) assert.ok(sizes[i] <= sizes[i + 1] + 1e-12, `shrinks left ${tag} @${i}`);
  for (const s of sizes) {
    assert.ok(s >= min - 1e-9, `size ${s} below min ${tag}`);
    assert.ok(s <= base + 1e-9, `size ${s} above base ${tag}`);
  }
  return { first, sizes };
}

test('grid: sum, shape, min and window over counts, currents and strips', () => {
  let calls = 0;
  for (const cfg of CONFIGS) {
    for (const c of COUNTS) {
      for (const current of currentsFor(c)) {
        checkProperties(c, current, cfg);
        calls++;
      }
    }
  }
  assert.ok(calls > 5000);
});

test('sizes follow the cosine formula of DESIGN.md, and the window is as large as fits', () => {
  for (const cfg of CONFIGS) {
    for (const c of [3, 7, 20, 45, 60, 100, 150, 333]) {
      for (const current of currentsFor(c)) {
        if (c * cfg.base <= cfg.total) continue;
        const cur = clampCur(current, c);
        const { first, sizes } = dotSizes({ count: c, current, ...cfg });
        const ref = naiveWindow(c, cur, sizes.length, cfg);
        if (ref.x <= 1 && Math.min(...ref.sizes) >= cfg.min - 1e-9) {
          assert.equal(first, ref.first);
          sizes.forEach((s, i) => assert.ok(Math.abs(s - ref.sizes[i]) < 1e-9, `formula ${c} ${current}`));
          if (sizes.length < c) {
            const bigger = naiveWindow(c, cur, sizes.length + 1, cfg);
            const ok = bigger.x <= 1 && Math.min(...bigger.sizes) >= cfg.min - 1e-9;
            assert.ok(!ok, `a window of ${sizes.length + 1} would fit too: ${c} ${current} ${JSON.stringify(cfg)}`);
          }
        }
      }
    }
  }
});

test('a known small case by hand', () => {
  // c=5, w=10, l=40, k=2: alpha 0 at the current dot, 1 elsewhere; x = (50-40)/(10*4) = 0.25
  const { first, sizes } = dotSizes({ count: 5, current: 2, total: 40, base: 10, wave: 2, min: 0 });
  assert.equal(first, 0);
  assert.deepEqual(sizes, [7.5, 7.5, 10, 7.5, 7.5]);
});

test('window clamps at both ends', () => {
  const cfg = { total: 300, base: 12, wave: 5, min: 4 };
  const start = dotSizes({ count: 1000, current: 0, ...cfg });
  assert.equal(start.first, 0);
  assert.ok(start.sizes.length < 1000);
  assert.equal(start.sizes[0], 12);
  const end = dotSizes({ count: 1000, current: 999, ...cfg });
  assert.equal(end.first + end.sizes.length, 1000);
  assert.equal(end.sizes.at(-1), 12);
  const mid = dotSizes({ count: 1000, current: 500, ...cfg });
  assert.ok(mid.first > 0 && mid.first + mid.sizes.length < 1000);
});

test('count 0 and 1, odd inputs never give NaN nor throw', () => {
  assert.deepEqual(dotSizes({ count: 0, current: 3, total: 100, base: 10, wave: 3, min: 1 }), { first: 0, sizes: [] });
  assert.deepEqual(dotSizes({ count: 1, current: 0, total: 100, base: 10, wave: 3, min: 1 }), { first: 0, sizes: [10] });
  assert.deepEqual(dotSizes({ count: 1, current: 7.5, total: 100, base: 10, wave: 3, min: 1 }), { first: 0, sizes: [10] });
  // one dot wider than the strip shrinks to the strip
  assert.deepEqual(dotSizes({ count: 1, current: 0, total: 6, base: 10, wave: 3, min: 1 }), { first: 0, sizes: [6] });
  assert.deepEqual(dotSizes(), { first: 0, sizes: [] });
  const odd = [
    { count: NaN, current: NaN, total: NaN, base: NaN, wave: NaN, min: NaN },
    { count: -5, current: 1, total: 100, base: 10, wave: 3, min: 1 },
    { count: 10, current: NaN, total: 50, base: 10, wave: 1, min: -2 },
    { count: 10, current: Infinity, total: 50, base: 10, wave: 0.5, min: 20 },
    { count: '12', current: '3', total: '80', base: '10', wave: '4', min: '1' },
    { count: 10, current: 3, total: 0, base: 10, wave: 4, min: 1 },
    { count: 10, current: 3, total: 15, base: 10, wave: 40, min: 9 },
    { count: 3, current: 1, total: 100, base: 0, wave: 4, min: 0 },
    { count: 2.7, current: 1, total: 12, base: 10, wave: 4, min: 0 },
  ];
  for (const o of odd) {
    const r = dotSizes(o);
    assert.ok(Number.isInteger(r.first) && r.first >= 0, JSON.stringify(o));
    assert.ok(Array.isArray(r.sizes));
    for (const s of r.sizes) assert.ok(Number.isFinite(s) && s >= 0, JSON.stringify(o));
  }
  // string numbers behave like numbers
  assert.deepEqual(dotSizes(odd[4]), dotSizes({ count: 12, current: 3, total: 80, base: 10, wave: 4, min: 1 }));
});

test('a strip too narrow for any wave still sums to its width with uniform dots', () => {
  const r = dotSizes({ count: 5, current: 2, total: 20, base: 14, wave: 9, min: 3 });
  assert.ok(Math.abs(sumSizes(r.sizes) - 20) < 1e-9);
  assert.ok(r.first <= 2 && 2 < r.first + r.sizes.length);
  for (const s of r.sizes) assert.ok(s >= 3 && s <= 14);
});

test('100000 dots are quick', () => {
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) {
    dotSizes({ count: 100000, current: 1234.5 + i, total: 800, base: 14, wave: 9, min: 2 });
  }
  const windowed = (performance.now() - t0) / 50;
  const t1 = performance.now();
  const all = dotSizes({ count: 100000, current: 99999, total: 800, base: 14, wave: 9, min: 0 });
  const full = performance.now() - t1;
  assert.equal(all.sizes.length, 100000);
  assert.ok(windowed < 5, `windowed call took ${windowed} ms`);
  assert.ok(full < 200, `full call took ${full} ms`);
});

test('sumSizes is compensated', () => {
  assert.equal(sumSizes([]), 0);
  assert.equal(sumSizes(new Array(100000).fill(0.1)), 10000);
});
