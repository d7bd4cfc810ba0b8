// What an import's messages carry (importer.js), as ImportBatch does for the CLI: as many
// items as fit one message within the server's limits (hello.limits: maxAddPerMessage,
// maxMessageBytes), keys and attrs only when the server keeps them (its hello announces
// maxAttrBytes), and attrs only within that bound and when the item with them fits a message
// alone. Pure, no DOM.
const OVERHEAD = 64; // the message around the items: {"type":"add","cells":[…],"ref":…}
const utf8 = new TextEncoder();

/**
 * Bytes of `attrs` as the server encodes them (what maxAttrBytes bounds), at most: as
 * JSON.stringify writes them, but the server writes a one-digit negative exponent with two
 * digits (1e-7 is 1e-07), so one more byte for each (counting any in strings too: at most
 * a little too strict).
 */
export function serverSize(attrs) {
  const text = JSON.stringify(attrs);
  return utf8.encode(text).length + (text.match(/\de-\d(?!\d)/g) || []).length;
}

/**
 * How an import's messages are packed under the server's `limits`: whether it keeps keys
 * and attrs (`keepsAttrs`), the attrs each item goes with, the batches, and notes on the
 * attrs left out.
 */
export function createPacking(limits = {}) {
  const maxItems = Math.max(1, Number(limits.maxAddPerMessage) || 1000);
  const maxBytes = Math.max(256, Number(limits.maxMessageBytes) || 65536);
  const keepsAttrs = Number.isFinite(Number(limits.maxAttrBytes)) && limits.maxAttrBytes !== null;
  const maxAttrBytes = Number(limits.maxAttrBytes);
  const oversized = { node: new Set(), link: new Set() };
  // `attrs` as sent: undefined when the server keeps none or they are over its bound, or
  // when `item` with them would not fit a message alone (maxAttrBytes near maxMessageBytes).
  const fitted = (attrs, what, item, index) => {
    if (attrs === undefined || !keepsAttrs) return undefined;
    const size = utf8.encode(JSON.stringify({ ...item, attrs })).length + 1;
    if (serverSize(attrs) <= maxAttrBytes && OVERHEAD + size <= maxBytes) return attrs;
    oversized[what].add(index);
    return undefined;
  };
  return {
    keepsAttrs,
    fitted,

    /** The cell each of `nodes` (graphfile.js) goes as: with its key and attrs when they are kept. */
    cellsOf(nodes) {
      return nodes.map(({ cell: { key, attrs, ...drawn } }, index) => {
        const cell = { ...drawn };
        if (keepsAttrs && key !== undefined) cell.key = key;
        const sent = fitted(attrs, 'node', cell, index);
        if (sent !== undefined) cell.attrs = sent;
        return cell;
      });
    },

    /** As many items as fit a message, from `from` on, of those `wanted` picks: [indices, items]. */
    batch(count, from, wanted, item) {
      const picked = [];
      const items = [];
      let bytes = OVERHEAD;
      for (let i = from; i < count && picked.length < maxItems; i++) {
        if (!wanted(i)) continue;
        const it = item(i);
        if (it === null) continue;
        const size = utf8.encode(JSON.stringify(it)).length + 1;
        if (bytes + size > maxBytes && picked.length > 0) break;
        bytes += size;
        picked.push(i);
        items.push(it);
      }
      return [picked, items];
    },

    /** What was left out of the attrs, for the import's notes. */
    get notes() {
      return Object.entries(oversized).filter(([, set]) => set.size > 0)
        .map(([what, set]) => `${set.size} ${what} attribute set(s) left out: over maxAttrBytes (${maxAttrBytes}) or too big for a message`);
    },
  };
}
