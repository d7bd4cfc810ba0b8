// Who is linked to whom: the selected cell's neighbours (one hop, or two), for the panel's
// list, the canvas's highlight (focus.js) and the tooltip's degree. The adjacency is built once
// per cells' data (its version), when first asked. Pure, no DOM.

/** Adjacency of `links` (Map of {source, target}): Map id -> array of linked ids. */
export function adjacencyOf(links) {
  const adj = new Map();
  const add = (a, b) => {
    const list = adj.get(a);
    if (list) list.push(b);
    else adj.set(a, [b]);
  };
  for (const { source, target } of links.values()) {
    add(source, target);
    add(target, source);
  }
  return adj;
}

/**
 * The cells within `hops` links of `id` (1 or 2): {cells: Set with id itself, ring1: ids one
 * hop away, ring2: ids exactly two hops away}. Rings keep the order links came in.
 */
export function neighbourhood(adj, id, hops = 1) {
  const cells = new Set([id]);
  const ring1 = [];
  for (const b of adj.get(id) ?? []) {
    if (cells.has(b)) continue;
    cells.add(b);
    ring1.push(b);
  }
  const ring2 = [];
  if (hops >= 2) {
    for (const a of ring1) {
      for (const b of adj.get(a) ?? []) {
        if (cells.has(b)) continue;
        cells.add(b);
        ring2.push(b);
      }
    }
  }
  return { cells, ring1, ring2 };
}

/** An adjacency kept for the state's data, rebuilt only when asked after the links changed. */
export function createNeighbours(data) {
  let key = null;
  let adj = new Map();
  function current() {
    const d = data();
    if (!key || key.d !== d || key.version !== d.version) {
      adj = adjacencyOf(d.links);
      key = { d, version: d.version };
    }
    return adj;
  }
  return {
    /** The cells `id` is linked to. */
    linked: (id) => current().get(id) ?? [],
    /** How many cells `id` is linked to. */
    degree: (id) => current().get(id)?.length ?? 0,
    of: (id, hops) => neighbourhood(current(), id, hops),
  };
}
