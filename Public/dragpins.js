// What dragging a cell sends (docs/protocol.md, `pin`). While a free cell is dragged, its
// pins carry `drag: true`: the server lets the cell go if this connection closes mid-drag
// (a closed tab never leaves it pinned for everyone). A cell pinned before the drag is
// pinned for good all along, and stays where it is dropped; a free cell is let go at the drop.
// Pure, so node can test it.

/** The pin sent while cell `id` is dragged to (x, y). */
export function dragPin(id, x, y, wasPinned) {
  return wasPinned ? { type: 'pin', id, x, y } : { type: 'pin', id, x, y, drag: true };
}

/** The message the drop (or a cancelled drag) sends. */
export function dropMessage(id, x, y, { wasPinned, cancelled }) {
  return wasPinned && !cancelled ? { type: 'pin', id, x, y } : { type: 'unpin', id };
}
