// Sending a graph (graphfile.js) into the room, as `forcelayout import` does: its nodes as
// cells in batches within the server's limits (hello.limits: maxAddPerMessage,
// maxMessageBytes), one message at a time, each answered by its `added` event (this page's,
// in order: it gives the cells' ids) or its error (with the ref REF); then its links by those
// ids. Pure, no DOM: the page sends what `next` returns and hands back the answers. Keys and
// attrs go as they are, but attrs over hello.limits.maxAttrBytes are left out (noted), and a
// server whose hello announces no maxAttrBytes (older: it keeps neither) gets neither.
export const REF = 'import';
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

export function createImporter(graph, limits = {}) {
  const maxItems = Math.max(1, Number(limits.maxAddPerMessage) || 1000);
  const maxBytes = Math.max(256, Number(limits.maxMessageBytes) || 65536);
  const keepsAttrs = Number.isFinite(Number(limits.maxAttrBytes)) && limits.maxAttrBytes !== null;
  const maxAttrBytes = Number(limits.maxAttrBytes);
  const ids = new Array(graph.nodes.length).fill(null);
  const notes = [...graph.notes];
  if (!keepsAttrs) notes.push('ids and attributes not kept: the server does not keep them (it is older)');
  const oversized = { node: 0, link: 0 };
  // `attrs` as sent: undefined when the server keeps none or they are over its bound, or
  // when `item` with them would not fit a message alone (maxAttrBytes near maxMessageBytes).
  const fitted = (attrs, what, item) => {
    if (attrs === undefined || !keepsAttrs) return undefined;
    const size = utf8.encode(JSON.stringify({ ...item, attrs })).length + 1;
    if (serverSize(attrs) <= maxAttrBytes && OVERHEAD + size <= maxBytes) return attrs;
    oversized[what]++;
    return undefined;
  };
  let nextNode = 0;
  let nextEdge = 0;
  let inFlight = null; // {kind: 'cells'|'links', from, count}
  let cells = 0;
  let links = 0;
  let failed = null;
  const nodeCells = graph.nodes.map(({ cell: { key, attrs, ...drawn } }) => {
    const cell = { ...drawn };
    if (keepsAttrs && key !== undefined) cell.key = key;
    const sent = fitted(attrs, 'node', cell);
    if (sent !== undefined) cell.attrs = sent;
    return cell;
  });
  let edgeLinks = null; // the links by cell id, once the cells have theirs

  // As many items as fit a message: count and bytes.
  function batch(items, from) {
    const out = [];
    let bytes = OVERHEAD;
    for (let i = from; i < items.length && out.length < maxItems; i++) {
      const item = items[i];
      if (item === null) { out.push(null); continue; }
      const size = utf8.encode(JSON.stringify(item)).length + 1;
      if (bytes + size > maxBytes && out.length > 0) break;
      bytes += size;
      out.push(item);
    }
    return out;
  }

  const importer = {
    get done() { return failed !== null || (inFlight === null && nextNode >= graph.nodes.length && nextEdge >= graph.edges.length); },
    get failed() { return failed; },
    get progress() { return { done: cells + links, total: graph.nodes.length + graph.edges.length, cells, links }; },
    get notes() {
      const over = Object.entries(oversized).filter(([, n]) => n > 0)
        .map(([what, n]) => `${n} ${what} attribute set(s) left out: over maxAttrBytes (${maxAttrBytes}) or too big for a message`);
      return [...notes, ...over];
    },
    get waiting() { return inFlight !== null; },

    /** The next message to send, or null (waiting for an answer, or done). */
    next() {
      if (inFlight || failed) return null;
      if (nextNode < graph.nodes.length) {
        const items = batch(nodeCells, nextNode);
        inFlight = { kind: 'cells', from: nextNode, count: items.length };
        nextNode += items.length;
        return { type: 'add', cells: items, ref: REF };
      }
      while (nextEdge < graph.edges.length) {
        const chosen = [];
        let skipped = 0;
        const from = nextEdge;
        edgeLinks ??= graph.edges.map((e) => {
          const source = ids[e.source];
          const target = ids[e.target];
          if (source === null || target === null) return null;
          const l = { source, target };
          if (e.distance !== undefined) l.distance = e.distance;
          if (e.strength !== undefined) l.strength = e.strength;
          const attrs = fitted(e.attrs, 'link', l);
          if (attrs !== undefined) l.attrs = attrs;
          return l;
        });
        const items = batch(edgeLinks, from);
        nextEdge += items.length;
        for (const item of items) if (item === null) skipped++; else chosen.push(item);
        if (skipped) notes.push(`${skipped} link(s) left out: an end was not imported`);
        if (chosen.length === 0) continue;
        inFlight = { kind: 'links', count: chosen.length };
        return { type: 'link', links: chosen, ref: REF };
      }
      return null;
    },

    /** An event; true when it answered the message in flight (this page's `added` or `linked`). */
    event(ev, me) {
      if (!inFlight || ev.by !== me) return false;
      if (inFlight.kind === 'cells' && ev.kind === 'added' && Array.isArray(ev.ids) && ev.ids.length === inFlight.count) {
        ev.ids.forEach((id, k) => { ids[inFlight.from + k] = id; });
        cells += inFlight.count;
      } else if (inFlight.kind === 'links' && ev.kind === 'linked') {
        links += inFlight.count;
      } else {
        return false;
      }
      inFlight = null;
      return true;
    },

    /** An error with the ref REF: cells refused end the import; links refused are noted. */
    refused(err) {
      if (!inFlight || err?.ref !== REF) return false;
      const why = typeof err.message === 'string' ? err.message : 'refused';
      if (inFlight.kind === 'cells') failed = `the server refused cells: ${why}`;
      else notes.push(`${inFlight.count} link(s) refused by the server: ${why}`);
      inFlight = null;
      return true;
    },
  };
  return importer;
}
