// Cells of their own size drawn by stamping (render.js): stampCells draws one radius at a
// time, so the cells are grouped by radius (a cell without its own has half the cell size)
// and each group's positions and colour slots are gathered into buffers of its own. The
// grouping is kept per radii array and cell size; the buffers are refilled each frame and
// reused. Pure, no DOM.

export function createRadiusGroups() {
  let key = null;
  let groups = [];

  /** The groups of `scene` ({xy, count, slots, radii, cellSize}): [{r, count, xy, slots}]. */
  return function groupsOf(scene) {
    const standard = (Number(scene.cellSize) || 20) / 2;
    if (!key || key.radii !== scene.radii || key.standard !== standard || key.count !== scene.count) {
      const members = new Map();
      for (let i = 0; i < scene.count; i++) {
        const r = scene.radii[i] > 0 ? scene.radii[i] : standard;
        let list = members.get(r);
        if (!list) members.set(r, (list = []));
        list.push(i);
      }
      groups = [...members].sort((a, b) => b[0] - a[0]).map(([r, list]) => ({
        r, indices: Int32Array.from(list), count: list.length,
        xy: new Float64Array(2 * list.length), slots: new Uint16Array(list.length),
      }));
      key = { radii: scene.radii, standard, count: scene.count };
    }
    const { xy, slots } = scene;
    for (const g of groups) {
      const { indices } = g;
      for (let j = 0; j < indices.length; j++) {
        const i = indices[j];
        g.xy[2 * j] = xy[2 * i];
        g.xy[2 * j + 1] = xy[2 * i + 1];
        g.slots[j] = slots ? slots[i] : 0;
      }
    }
    return groups;
  };
}
