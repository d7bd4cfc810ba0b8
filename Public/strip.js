// The page-dot strip: one dot per cell in membership order, the selected cell's dot the
// largest, sizes from dots.js (a cosine wave that keeps the strip's width constant). It is
// an ARIA slider: click or drag along it, or focus it and use the keys (stripnav.js), to
// select a cell. The wave's centre (`current`, fractional) glides toward the selected index.
// It follows the state's membership, selection and colour scheme, and calls onChange when
// it has something new to draw (the page's frame loop wakes and calls frame()).
import { dotSizes, sumSizes } from './dots.js';
import { keyTarget } from './stripnav.js';
import { selectIndex, selectedIndex } from './state.js';
import { cellName } from './celldata.js';
import { fitCanvas } from './canvasfit.js';

const BASE = 14; // largest dot slot, CSS px
const WAVE = 9; // dots in the half-wave
const MIN = 3; // smallest slot
const PAD = 16; // free space at each end of the strip

export function createStrip(el, state, { label = null, onChange = () => {} } = {}) {
  const canvas = document.createElement('canvas');
  canvas.className = 'strip-canvas';
  el.append(canvas);
  const ctx = canvas.getContext('2d');

  let count = 0;
  let selected = -1;
  let current = 0;
  let cssW = 1;
  let cssH = 1;
  let dpr = 1;
  let dirty = true;
  let layout = { first: 0, sizes: [], x0: 0 };
  let colors = readColors();

  function readColors() {
    const cs = getComputedStyle(el);
    const v = (name, fallback) => cs.getPropertyValue(name).trim() || fallback;
    return { dot: v('--dot', '#94a3b8'), current: v('--cell-selected', '#e11d48') };
  }

  function updateAria() {
    el.setAttribute('aria-valuemin', '1');
    el.setAttribute('aria-valuemax', String(count));
    let text = 'No cells';
    if (count === 0 || selected < 0) {
      el.removeAttribute('aria-valuenow');
    } else {
      el.setAttribute('aria-valuenow', String(selected + 1));
      text = `${cellName(state.data, state.ids[selected])}, ${selected + 1} of ${count}`;
    }
    el.setAttribute('aria-valuetext', text);
    if (label) label.textContent = text;
  }

  function resize() {
    ({ cssW, cssH, dpr } = fitCanvas(canvas));
    touch();
  }

  function touch() {
    dirty = true;
    onChange();
  }

  // The membership or the selection changed. `shift` moves the wave's centre along with the
  // selected cell when only its index changed (cells before it added or removed), so it
  // does not glide.
  function follow(shift = 0) {
    count = state.ids.length;
    if (shift) current += shift;
    selected = selectedIndex(state);
    if (count === 0) current = 0;
    current = Math.min(Math.max(current, 0), Math.max(0, count - 1));
    updateAria();
    touch();
  }
  state.on('membership', ({ shift }) => follow(shift));
  state.on('selection', () => follow());
  state.on('data', updateAria); // the selected cell's label
  state.on('theme', () => {
    colors = readColors();
    touch();
  });

  function draw() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    const total = Math.max(0, cssW - 2 * PAD);
    const { first, sizes } = dotSizes({ count, current, total, base: BASE, wave: WAVE, min: MIN });
    const x0 = (cssW - sumSizes(sizes)) / 2;
    layout = { first, sizes, x0 };
    el.dataset.first = String(first);
    el.dataset.shown = String(sizes.length);
    const cy = cssH / 2;
    let x = x0;
    ctx.fillStyle = colors.dot;
    ctx.beginPath();
    for (let j = 0; j < sizes.length; j++) {
      const s = sizes[j];
      if (first + j !== selected) {
        const r = Math.max(0.75, s * 0.32);
        ctx.moveTo(x + s / 2 + r, cy);
        ctx.arc(x + s / 2, cy, r, 0, Math.PI * 2);
      }
      x += s;
    }
    ctx.fill();
    const j = selected - first;
    if (j >= 0 && j < sizes.length) {
      let sx = x0;
      for (let i = 0; i < j; i++) sx += sizes[i];
      ctx.fillStyle = colors.current;
      ctx.beginPath();
      ctx.arc(sx + sizes[j] / 2, cy, Math.max(1, sizes[j] * 0.36), 0, Math.PI * 2);
      ctx.fill();
    }
  }

  /** Index of the dot at a client x, -1 when none is shown. */
  function indexAt(clientX) {
    const { first, sizes, x0 } = layout;
    if (sizes.length === 0) return -1;
    const x = clientX - canvas.getBoundingClientRect().left;
    let edge = x0;
    for (let j = 0; j < sizes.length; j++) {
      edge += sizes[j];
      if (x < edge) return first + j;
    }
    return first + sizes.length - 1;
  }

  function choose(i) {
    if (count === 0) return;
    const j = Math.min(Math.max(i, 0), count - 1);
    if (j !== selected) selectIndex(state, j);
  }

  // Press anywhere on the strip to select the nearest dot; keep pressing and drag to scrub.
  let scrubbing = null;
  el.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    const i = indexAt(e.clientX);
    if (i >= 0) choose(i);
    scrubbing = e.pointerId;
    el.setPointerCapture(e.pointerId);
    el.focus({ preventScroll: true });
  });
  el.addEventListener('pointermove', (e) => {
    if (scrubbing !== e.pointerId) return;
    const i = indexAt(e.clientX);
    if (i >= 0) choose(i);
  });
  const endScrub = (e) => {
    if (scrubbing === e.pointerId) scrubbing = null;
  };
  el.addEventListener('pointerup', endScrub);
  el.addEventListener('pointercancel', endScrub);

  el.addEventListener('keydown', (e) => {
    const i = keyTarget(e.key, { selected, count, page: layout.sizes.length });
    if (i === null) return;
    choose(i);
    e.preventDefault();
  });

  el.addEventListener('wheel', (e) => {
    if (count === 0) return;
    const d = Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : e.deltaY;
    if (d === 0) return;
    e.preventDefault();
    choose(selected + Math.sign(d));
  }, { passive: false });

  follow();

  return {
    /** The strip's size (or the pixel ratio) changed. */
    resize,
    /** One animation frame: glide the wave, draw if needed. Returns true while moving. */
    frame(dt) {
      let moving = false;
      if (selected >= 0 && current !== selected) {
        const t = 1 - Math.exp(-Math.max(0, dt) / 0.12);
        current += (selected - current) * t;
        if (Math.abs(selected - current) < 0.002) current = selected;
        else moving = true;
        dirty = true;
      }
      if (dirty) {
        dirty = false;
        draw();
      }
      return moving;
    },
  };
}
