// node --test Tests/web/  — the drawn scene (Public/scene.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScene } from '../../Public/scene.js';
import { createState, selectId, setDrag, setHover, setScheme } from '../../Public/state.js';
import { applyFrame, applyMessage } from '../../Public/apply.js';

function setup() {
  const state = createState();
  applyFrame(state, { type: 'frame', tick: 1, v: 1, ids: [4, 7], owners: [['c1', 4, 4], ['c2', 7, 7]], xy: [1, 2, 3, 4] });
  let sample = { ids: state.ids, xy: new Float64Array([1, 2, 3, 4]), count: 2, moving: true };
  const interp = { sample: () => sample };
  return { state, scene: createScene(state, interp), setSample: (s) => { sample = s; } };
}

test('the scene shows the sampled positions, with colour slots by owner', () => {
  const { state, scene } = setup();
  setHover(state, 7);
  const moving = scene.update(0);
  assert.equal(moving, true);
  assert.deepEqual([...scene.scene.xy], [1, 2, 3, 4]);
  assert.equal(scene.scene.index.get(7), 1);
  assert.equal(scene.scene.hoveredId, 7);
  assert.equal(scene.scene.selectedId, null, 'the first cell, selected by default, has no halo');
  selectId(state, 4);
  scene.update(0);
  assert.equal(scene.scene.selectedId, 4, 'a cell the user picked has');
  assert.notEqual(scene.scene.slots[0], scene.scene.slots[1], 'two owners, two colours');
});

test('a dragged cell is drawn at the pointer', () => {
  const { state, scene } = setup();
  setDrag(state, { id: 4, wx: 50, wy: -5, wasPinned: false });
  scene.update(0);
  assert.deepEqual([...scene.scene.xy], [50, -5, 3, 4]);
  assert.equal(scene.scene.draggingId, 4);
});

test("paints are cached per membership, owners and the state's scheme", () => {
  const { state, scene } = setup();
  const a = scene.paintOf(state.ids);
  assert.equal(scene.paintOf(state.ids), a);
  setScheme(state, 'dark');
  const dark = scene.paintOf(state.ids);
  assert.notEqual(dark, a);
  assert.notDeepEqual(dark.palette.css, a.palette.css);
  applyFrame(state, { type: 'frame', tick: 2, v: 2, ids: [4, 7], owners: [['c1', 4, 7]], xy: [1, 2, 3, 4] });
  const merged = scene.paintOf(state.ids);
  assert.notEqual(merged, dark);
  assert.deepEqual(merged.legend.rows.map((r) => [r.client, r.count]), [['c1', 2]]);
  // a change of the cells' data paints again: colour, then group (the legend goes by group)
  applyMessage(state, { type: 'data', cells: { id: [4, 7], color: ['#ff0000', null], group: [null, 'g'] }, links: { source: [], target: [], distance: [] } });
  const painted = scene.paintOf(state.ids);
  assert.notEqual(painted, merged);
  assert.equal(painted.palette.css[painted.slots[0]], '#ff0000');
  assert.equal(painted.legend.by, 'group');
  assert.deepEqual(painted.legend.rows.map((r) => [r.name, r.count]), [['g', 1], ['no group', 1]]);
  assert.equal(painted.radii, null);
  applyMessage(state, { type: 'event', seq: 99, kind: 'updated', by: 'c1', cells: [{ id: 7, radius: 30 }] });
  assert.deepEqual([...scene.paintOf(state.ids).radii], [0, 30]);
});
