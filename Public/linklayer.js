// The links' layer kept from one draw to the next (render.js): the background, the origin's
// cross and the links as drawn last, with every cell's device position then. While no cell
// (nor the origin) has moved by TOLERANCE px or more since, and the links, the buffer, the
// colours and the cells' sizes are the same, a draw starts from a copy of it instead of
// drawing the links again: each line would land on the same pixels, give or take the
// rounding of a position that moved under half a pixel. At 100k cells and 200k links that
// is a 3 MB copy instead of most of the draw (Tests/web/README.md), whenever a laid-out graph
// only trembles, or only the selection, the labels or the pointers changed. The cells are
// stamped over the copy at their new positions, as always. Pure, no DOM.

export const TOLERANCE = 0.5; // device px: half a pixel, where a line's pixels could start to change

/**
 * createLinkLayer() -> {restore(buf, key, view), keep(buf, key, view)}. key: {pairs, w, h,
 * ...} compared field by field (===) with the kept one; view: {xy, count, ox, oy, k}, the
 * cells' device positions (ox + x*k, oy + y*k) and the origin (ox, oy).
 */
export function createLinkLayer() {
  let layer = new Int32Array(0);
  let at = new Float64Array(0); // the cells' device positions when the layer was drawn
  let kept = null; // {key, buf, count, ox, oy}

  return {
    /**
     * Copies the kept layer into `buf` and returns true when it still holds for `key` and
     * `view`; false (buf untouched) when the links must be drawn again.
     */
    restore(buf, key, { xy, count, ox, oy, k }) {
      if (kept === null || kept.buf !== buf || kept.count !== count || !sameKey(kept.key, key)) return false;
      if (!(Math.abs(ox - kept.ox) < TOLERANCE && Math.abs(oy - kept.oy) < TOLERANCE)) return false;
      for (let i = 0; i < 2 * count; i += 2) {
        const dx = ox + xy[i] * k - at[i];
        const dy = oy + xy[i + 1] * k - at[i + 1];
        // NaN (a position not a number, then or now) fails too
        if (!(dx < TOLERANCE && dx > -TOLERANCE && dy < TOLERANCE && dy > -TOLERANCE)) return false;
      }
      buf.set(layer.subarray(0, buf.length));
      return true;
    },

    /** Keeps `buf` (just drawn: background, origin, links) as the layer for `key` and `view`. */
    keep(buf, key, { xy, count, ox, oy, k }) {
      if (layer.length < buf.length) layer = new Int32Array(buf.length);
      layer.set(buf);
      if (at.length < 2 * count) at = new Float64Array(Math.max(2 * count, 2 * at.length));
      for (let i = 0; i < 2 * count; i += 2) {
        at[i] = ox + xy[i] * k;
        at[i + 1] = oy + xy[i + 1] * k;
      }
      kept = { key: { ...key }, buf, count, ox, oy };
    },

    /** Forgets the layer (the next draw draws the links). */
    clear() {
      kept = null;
    },
  };
}

function sameKey(a, b) {
  const names = Object.keys(b);
  if (names.length !== Object.keys(a).length) return false;
  for (const name of names) if (a[name] !== b[name]) return false;
  return true;
}
