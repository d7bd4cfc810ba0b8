// What the canvas draws each animation frame: the interpolated positions of the newest
// membership (or, for a moment after a change, the one before it), each cell's colour slot
// (its colour, group or owner: cellpaint.js) in the state's colour scheme, its own radius,
// the links and labels (state.data), and the marks (pinned, selected, hovered, dragged).
// Index maps and palettes are cached per membership, so a frame costs one interpolation and
// no allocation. While the page shows a moment of the past (state.moment: rewind.js), that is
// drawn instead: its cells, positions, data, links and pins (the live frames still go through
// the interpolator, so going live shows the room as it is at once).
import { pickedCell } from './state.js';
import { ownerOf } from './owners.js';
import { createPalette } from './palette.js';
import { paintCells } from './cellpaint.js';

export function createScene(state, interp) {
  const indexCache = new WeakMap();
  function indexOf(ids) {
    if (ids === state.ids) return state.index;
    let m = indexCache.get(ids);
    if (!m) {
      m = new Map();
      for (let i = 0; i < ids.length; i++) m.set(ids[i], i);
      indexCache.set(ids, m);
    }
    return m;
  }

  let paints = [];
  /**
   * Colour slots, palette and legend of a membership (cellpaint.js), in the state's colour
   * scheme, and each cell's own radius (radii: null when every cell has the default): of the
   * live layout, or of a moment of the past (its data and owners' runs).
   */
  function paintOf(ids, data = state.data, runs = state.owners) {
    const { scheme } = state;
    let p = paints.find((q) => q.ids === ids && q.runs === runs && q.scheme === scheme && q.data === data && q.version === data.version);
    if (!p) {
      const owner = (id) => ownerOf(runs, id);
      p = { ids, runs, scheme, data, version: data.version, ...paintCells(ids, owner, data.cells, scheme), radii: radiiOf(ids, data.cells) };
      paints = [p, ...paints.slice(0, 1)];
    }
    return p;
  }

  function radiiOf(ids, cells) {
    let radii = null;
    for (let i = 0; i < ids.length; i++) {
      const r = cells.get(ids[i])?.radius;
      if (r === undefined) continue;
      radii ??= new Float64Array(ids.length);
      radii[i] = r;
    }
    return radii;
  }

  const scene = {
    ids: [], index: new Map(), xy: new Float64Array(0), count: 0, cellSize: 20, slots: null, radii: null,
    data: state.data,
    palette: createPalette([null]), pinned: state.pinned, selectedId: null, hoveredId: null, draggingId: null,
  };

  /**
   * Samples the interpolator at `now`; the dragged cell is drawn at the pointer rather than
   * where the delayed frames had it. Returns true while cells move.
   */
  function update(now) {
    const { hoveredId, moment } = state;
    const s = interp.sample(now); // also while a moment is shown: the live frames move on
    const dragging = moment === null ? state.dragging : null;
    const shown = moment ?? s;
    scene.ids = shown.ids;
    scene.xy = shown.xy;
    scene.count = moment === null ? s.count : moment.ids.length;
    scene.index = moment === null ? indexOf(scene.ids) : moment.index;
    scene.data = moment === null ? state.data : moment.data;
    // a moment's cells in the colours of who had added them then (or, not said, of now)
    const p = moment === null ? paintOf(scene.ids) : paintOf(scene.ids, scene.data, moment.owners ?? state.owners);
    scene.slots = p.slots;
    scene.palette = p.palette;
    scene.radii = p.radii;
    scene.cellSize = Number((moment ?? state).params.cellSize) || Number(state.params.cellSize) || 20;
    scene.pinned = moment === null ? state.pinned : moment.pinned;
    // the halo marks a cell the user picked, not the strip's first cell by default
    scene.selectedId = pickedCell(state);
    scene.hoveredId = hoveredId;
    scene.draggingId = dragging ? dragging.id : null;
    if (dragging) {
      const i = scene.index.get(dragging.id);
      if (i !== undefined) {
        scene.xy[2 * i] = dragging.wx;
        scene.xy[2 * i + 1] = dragging.wy;
      }
    }
    return moment === null && s.moving;
  }

  return { scene, update, paintOf };
}
