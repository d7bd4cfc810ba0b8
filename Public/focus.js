// What the canvas draws over the layout (a renderer overlay, render.js): the highlight of
// what the user picked and the people's pointers.
//
// - The highlight: a veil of the background over everything, then the picked cell, its links
//   and its neighbours (one hop, or two: state.hops), or every cell of the group picked in the
//   legend, drawn again at full strength with their labels (none overlapping).
// - A pulse: rings widening from a cell the search went to, for PULSE_MS.
// - Pointers: everyone who points at a cell (state.pointers) gets a ring in their colour and a
//   name tag; a cell outside the view gets its tag at the view's edge, on the way to it.
// The highlighted set is kept per selection, hops, group, membership and data version.
import { clientRGB, cssHex } from './palette.js';
import { cellName } from './celldata.js';
import { placeLabels } from './labels.js';
import { groupMembers } from './state.js';

const PULSE_MS = 1400;
const VEIL = 0.78; // how much of the background covers what is not highlighted
const MAX_LABELS = 80;
const TAG_FONT = '600 12px system-ui, sans-serif';

/** The arrow from the view toward a point outside it (CSS px). */
export function arrowToward(x, y, w, h) {
  const col = x < 0 ? 0 : x > w ? 2 : 1;
  const row = y < 0 ? 0 : y > h ? 2 : 1;
  return ['\u2196', '\u2191', '\u2197', '\u2190', '\u00b7', '\u2192', '\u2199', '\u2193', '\u2198'][row * 3 + col];
}

export function createFocus({ state, neighbours, now = () => performance.now() }) {
  let cached = null;
  let pulse = null; // {id, t0}

  /** The highlighted cells: {cells: Set, center: id | null, order: ids, most important first} or null. */
  function highlighted(scene) {
    if (!state.focused) return null;
    const key = { sel: state.selectedId, hops: state.hops, group: state.group, ids: scene.ids, data: state.data, version: state.data.version };
    if (cached && Object.keys(key).every((k) => cached.key[k] === key[k])) return cached.set;
    // the highlighted cells and the links among them (pairs of ids), found once per change:
    // a frame draws them without going through every link of the room
    let set = null;
    if (state.group !== null) {
      const cells = new Set(groupMembers(state));
      const pairs = [];
      for (const l of state.data.links.values()) if (cells.has(l.source) && cells.has(l.target)) pairs.push(l.source, l.target);
      set = { cells, center: null, order: [...cells], pairs };
    } else if (state.selectedId !== null) {
      const center = state.selectedId;
      const n = neighbours.of(center, state.hops);
      const pairs = [];
      for (const b of n.ring1) pairs.push(center, b);
      const ring1 = new Set(n.ring1);
      for (const b of n.ring2) for (const a of neighbours.linked(b)) if (ring1.has(a)) pairs.push(a, b);
      set = { cells: n.cells, center, order: [center, ...n.ring1, ...n.ring2], pairs };
    }
    cached = { key, set };
    return set;
  }

  function drawHighlight({ ctx, dpr, cssW, cssH, colors }, scene, ox, oy, k, r, set) {
    const { xy, index, palette, slots, radii } = scene;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.globalAlpha = VEIL;
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, cssW, cssH);
    ctx.globalAlpha = 1;
    const pos = (id) => {
      const i = index.get(id);
      return i === undefined || i >= scene.count ? null : [ox + xy[2 * i] * k, oy + xy[2 * i + 1] * k, i];
    };
    // the cell's links (and its neighbours' to the second ring), or a group's inner links
    ctx.strokeStyle = colors.link;
    ctx.lineWidth = 1.25;
    ctx.beginPath();
    for (let p = 0; p < set.pairs.length; p += 2) {
      const a = pos(set.pairs[p]);
      const b = pos(set.pairs[p + 1]);
      if (!a || !b) continue;
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
    }
    ctx.stroke();
    const labels = [];
    for (const id of set.order) {
      const p = pos(id);
      if (!p) continue;
      const radius = Math.max(2, radii && radii[p[2]] > 0 ? radii[p[2]] * k : r);
      ctx.fillStyle = palette.css[slots ? slots[p[2]] : 0] || palette.css[0];
      ctx.beginPath();
      ctx.arc(p[0], p[1], radius, 0, Math.PI * 2);
      ctx.fill();
      if (p[0] < -50 || p[1] < -20 || p[0] > cssW + 50 || p[1] > cssH + 20) continue;
      // centred on the cell, as the canvas's labels are: the veiled label under it is the same text
      if (labels.length < MAX_LABELS && scene.data.cells.get(id)?.label) labels.push({ label: cellName(scene.data, id), x: p[0], y: p[1] });
    }
    const c = set.center === null ? null : pos(set.center);
    if (c) {
      const rs = Math.max(2, radii && radii[c[2]] > 0 ? radii[c[2]] * k : r);
      ctx.strokeStyle = colors.selected;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(c[0], c[1], rs + 4, 0, Math.PI * 2);
      ctx.stroke();
    }
    // the picked cell's first, so it is always placed; none overlaps another
    if (labels.length > 0) placeLabels({ ctx, dpr, colors }, labels, MAX_LABELS);
  }

  function drawPulse({ ctx, dpr, colors }, scene, ox, oy, k, r) {
    const t = (now() - pulse.t0) / PULSE_MS;
    const i = scene.index.get(pulse.id);
    if (t >= 1 || i === undefined || i >= scene.count) {
      pulse = null;
      return false;
    }
    const x = ox + scene.xy[2 * i] * k;
    const y = oy + scene.xy[2 * i + 1] * k;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.strokeStyle = colors.selected;
    for (const lag of [0, 0.3]) {
      const u = t - lag;
      if (u <= 0) continue;
      ctx.globalAlpha = Math.max(0, 1 - u);
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(x, y, Math.max(r, 2) + 6 + 40 * u, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    return true;
  }

  function drawPointers({ ctx, dpr, cssW, cssH, colors }, scene, ox, oy, k, r) {
    if (state.pointers.size === 0) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = TAG_FONT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    for (const [client, p] of state.pointers) {
      const i = scene.index.get(p.id);
      if (i === undefined || i >= scene.count) continue;
      const color = cssHex(clientRGB(client, state.scheme));
      const name = client === state.client ? 'you' : p.name ?? client;
      const x = ox + scene.xy[2 * i] * k;
      const y = oy + scene.xy[2 * i + 1] * k;
      const radius = Math.max(3, (scene.radii && scene.radii[i] > 0 ? scene.radii[i] * k : r)) + 7;
      const inside = x > 0 && y > 0 && x < cssW && y < cssH;
      if (inside) {
        // a halo of the background under a dashed ring in the person's colour: it reads over
        // cells of that very colour too
        ctx.strokeStyle = colors.bg;
        ctx.lineWidth = 7;
        ctx.beginPath();
        ctx.arc(x, y, radius, 0, Math.PI * 2);
        ctx.stroke();
        ctx.strokeStyle = color;
        ctx.lineWidth = 3;
        ctx.setLineDash([5, 4]);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      // the tag: above right of the cell, or at the view's edge toward it
      const w = ctx.measureText(inside ? name : `${name} \u2192`).width + 12;
      const tx = Math.min(Math.max(inside ? x + radius * 0.7 : x, 4), cssW - w - 4);
      const ty = Math.min(Math.max(inside ? y - radius - 12 : y, 12), cssH - 12);
      ctx.fillStyle = color;
      ctx.strokeStyle = colors.hover; // the text colour: a border that parts the tag from the cells
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.roundRect(tx, ty - 10, w, 20, 6);
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = '#ffffff';
      ctx.fillText(inside ? name : `${name} ${arrowToward(x, y, cssW, cssH)}`, tx + 6, ty + 0.5);
    }
    ctx.fillStyle = colors.hover;
  }

  return {
    /** The renderer's overlay: returns true while it animates (a pulse). */
    overlay(frame, scene, ox, oy, k, r) {
      const set = highlighted(scene);
      if (set) drawHighlight(frame, scene, ox, oy, k, r, set);
      const pulsing = pulse !== null && drawPulse(frame, scene, ox, oy, k, r);
      drawPointers(frame, scene, ox, oy, k, r);
      return pulsing;
    },
    /** Rings widening from cell `id` for a moment (the search went there). */
    pulse(id) {
      pulse = { id, t0: now() };
    },
  };
}
