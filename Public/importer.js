// Sending a graph (graphfile.js) into the room, as `forcelayout import` does: its nodes as
// cells in batches within the server's limits (hello.limits: maxAddPerMessage,
// maxMessageBytes), up to WINDOW messages in flight, each answered by its `added` event (this
// page's, in order: it gives the cells' ids) or its error (by its own ref, REF-N); then its
// links by those ids, once every cell has its id. The server applies a connection's commands
// in order and answers them in that order, so an `added` or `linked` answers the oldest message
// in flight. Pure, no DOM: the page sends what `next` returns (while it returns one) and hands
// back the answers. Keys and attrs go as they are, but attrs over hello.limits.maxAttrBytes are
// left out (noted), and a server whose hello announces no maxAttrBytes (older: it keeps
// neither) gets neither (importbatch.js packs the messages).
//
// It survives the room moving to another server, as the CLI's ImportSession+Resume does: after
// a `failover` event, or the page's connection coming back, the room's data (celldata.js,
// replaced by the `data` message that follows) says which of its cells (by key) and links (by
// ends) the room holds; what was acknowledged but lost with the old owner is sent again, and so
// is the batch in flight when the room lacks it, but only LEFTOVER_WAIT seconds later, if its
// answer has not come meanwhile. (The new owner applies what waited in Redis before it tells
// the failover, so only a batch a relay passed on after that is answered late.) Links refused
// because they name a cell the failover lost go again once it is back. A batch unanswered for
// ANSWER_TIMEOUT seconds ends the import, saying so.
import { linkKey } from './celldata.js';
import { createPacking } from './importbatch.js';

export const REF = 'import';
/** Messages in flight at most (ImportSession.defaultWindow). */
export const WINDOW = 16;
export const ANSWER_TIMEOUT = 20;
export const DATA_TIMEOUT = 10;
export const LEFTOVER_WAIT = 1.5;

export function createImporter(graph, limits = {}, { window = WINDOW } = {}) {
  const windowSize = Math.max(1, Number(window) || 1);
  const packing = createPacking(limits);
  const { keepsAttrs } = packing;
  const ids = new Array(graph.nodes.length).fill(null); // the cell id each node got
  const edgeState = new Array(graph.edges.length).fill('pending'); // pending, sent, linked, refused, skipped
  const nodeSent = new Array(graph.nodes.length).fill(false); // in a message not answered yet
  const notes = [...graph.notes];
  if (!keepsAttrs) notes.push('ids and attributes not kept: the server does not keep them (it is older)');
  const refusals = [];
  const nodeCells = packing.cellsOf(graph.nodes);
  let nextNode = 0; // every node before it has its cell, every edge before nextEdge its fate
  let nextEdge = 0;
  let inFlight = []; // the messages not answered yet, oldest first: {kind: 'cells'|'links', ref, items}
  let serial = 0; // messages sent (each one's ref is REF-N)
  let cells = 0;
  let links = 0;
  let missingCells = graph.nodes.length;
  let pendingLinks = graph.edges.length;
  let failed = null;
  // The resume: waiting since (seconds), a resync under way, what to send again when.
  let since = null;
  let resyncing = false;
  let resendDue = false;
  const formerClients = new Set();
  const resent = { cells: 0, links: 0 };

  // The link of edge `e` between the cells its ends got.
  function linkOf(e, index) {
    const l = { source: ids[e.source], target: ids[e.target] };
    if (e.distance !== undefined) l.distance = e.distance;
    if (e.strength !== undefined) l.strength = e.strength;
    const attrs = packing.fitted(e.attrs, 'link', l, index);
    if (attrs !== undefined) l.attrs = attrs;
    return l;
  }

  function answered() {
    since = null;
    if (inFlight.length === 0) resendDue = false;
  }

  // Whether a message could go now (the window aside): a node neither in the room nor on its
  // way, or, once no cells are in flight, a pending edge.
  function sendable() {
    let node = nextNode;
    while (node < ids.length && (ids[node] !== null || nodeSent[node])) node++;
    if (node < ids.length) return true;
    if (inFlight.some((m) => m.kind === 'cells')) return false;
    return edgeState.indexOf('pending', nextEdge) >= 0;
  }

  // What the room holds against what was sent (after a failover or a reconnection).
  function reconcile(data) {
    resyncing = false;
    since = null;
    let newest = 0;
    ids.forEach((id, index) => {
      if (id === null) return;
      if (data.cells.has(id)) {
        newest = Math.max(newest, id);
        return;
      }
      ids[index] = null;
      cells--;
      missingCells++;
      resent.cells++;
      nextNode = Math.min(nextNode, index);
    });
    const holds = (index) => {
      const e = graph.edges[index];
      return ids[e.source] !== null && ids[e.target] !== null && data.links.has(linkKey(ids[e.source], ids[e.target]));
    };
    edgeState.forEach((fate, index) => {
      if (fate !== 'linked' || holds(index)) return;
      edgeState[index] = 'pending';
      links--;
      pendingLinks++;
      resent.links++;
      nextEdge = Math.min(nextEdge, index);
    });
    // An add is all or nothing: the room has a message's batch when it has all its keys
    // among cells newer than the import's others (each message whole or not at all).
    const found = new Map();
    for (const [id, fields] of data.cells) {
      if (id > newest && fields.key !== undefined && !found.has(fields.key)) found.set(fields.key, id);
    }
    // In flight may be cells, links, or both (links sent before the failover was heard of,
    // and cells it lost sent again since): each message is looked for by its kind.
    inFlight = inFlight.filter((m) => {
      if (m.kind === 'links') {
        const arrived = m.items.filter(holds);
        for (const i of arrived) edgeState[i] = 'linked';
        links += arrived.length;
        pendingLinks -= arrived.length;
        m.items = m.items.filter((i) => !arrived.includes(i));
        return m.items.length > 0;
      }
      const got = m.items.map((i) => (nodeCells[i].key === undefined ? undefined : found.get(nodeCells[i].key)));
      if (!got.every((id) => id !== undefined)) return true;
      m.items.forEach((i, k) => { ids[i] = got[k]; nodeSent[i] = false; });
      cells += got.length;
      missingCells -= got.length;
      return false;
    });
    resendDue = inFlight.length > 0;
  }

  // A message goes: in flight under its own ref until answered.
  function send(kind, items, message) {
    serial += 1;
    const ref = `${REF}-${serial}`;
    inFlight.push({ kind, ref, items });
    since = null;
    return { ...message, ref };
  }

  const importer = {
    get done() { return failed !== null || (inFlight.length === 0 && !resyncing && missingCells === 0 && pendingLinks === 0); },
    get failed() { return failed; },
    get progress() { return { done: cells + links, total: graph.nodes.length + graph.edges.length, cells, links }; },
    get notes() {
      const skipped = edgeState.filter((fate) => fate === 'skipped').length;
      const lost = skipped ? [`${skipped} link(s) left out: an end was not imported`] : [];
      const again = resent.cells + resent.links
        ? [`sent again after the room moved: ${resent.cells} cell(s) and ${resent.links} link(s) it did not hold`] : [];
      return [...notes, ...packing.notes, ...lost, ...again, ...refusals];
    },
    /** Nothing to send until an answer (the window is full, or links wait for the cells' ids) or the room's data come. */
    get waiting() { return resyncing || inFlight.length >= windowSize || (inFlight.length > 0 && !sendable()); },
    /** Waiting for the room's data (after a failover or a reconnection). */
    get resyncing() { return resyncing; },

    /** The next message to send, or null (the window is full, waiting for an answer, or done). */
    next() {
      if (failed || resyncing || inFlight.length >= windowSize) return null;
      while (nextNode < ids.length && (ids[nextNode] !== null || nodeSent[nextNode])) nextNode++;
      if (nextNode < ids.length) {
        const [picked, items] = packing.batch(ids.length, nextNode, (i) => ids[i] === null && !nodeSent[i], (i) => nodeCells[i]);
        for (const i of picked) nodeSent[i] = true;
        return send('cells', picked, { type: 'add', cells: items });
      }
      // Links name cells by the ids their answers give.
      if (inFlight.some((m) => m.kind === 'cells')) return null;
      for (;;) {
        while (nextEdge < edgeState.length && edgeState[nextEdge] !== 'pending') nextEdge++;
        if (nextEdge >= edgeState.length) return null;
        const [picked, items] = packing.batch(edgeState.length, nextEdge, (i) => {
          if (edgeState[i] !== 'pending') return false;
          const e = graph.edges[i];
          if (ids[e.source] !== null && ids[e.target] !== null) return true;
          edgeState[i] = 'skipped';
          pendingLinks--;
          return false;
        }, (i) => linkOf(graph.edges[i], i));
        if (picked.length === 0) continue;
        for (const i of picked) edgeState[i] = 'sent';
        return send('links', picked, { type: 'link', links: items });
      }
    },

    /** An event; true when it answered the oldest message in flight (this page's `added` or `linked`). */
    event(ev, me) {
      const oldest = inFlight[0];
      if (!oldest || (ev.by !== me && !formerClients.has(ev.by))) return false;
      const { kind, items } = oldest;
      if (kind === 'cells' && ev.kind === 'added' && Array.isArray(ev.ids) && ev.ids.length === items.length) {
        items.forEach((i, k) => { ids[i] = ev.ids[k]; nodeSent[i] = false; });
        cells += items.length;
        missingCells -= items.length;
      } else if (kind === 'links' && ev.kind === 'linked') {
        for (const i of items) edgeState[i] = 'linked';
        links += items.length;
        pendingLinks -= items.length;
      } else {
        return false;
      }
      inFlight.shift();
      answered();
      return true;
    },

    /** An error whose ref names a message in flight: cells refused end the import; links refused are noted. */
    refused(err) {
      const at = inFlight.findIndex((m) => m.ref === err?.ref);
      if (at < 0) return false;
      const [message] = inFlight.splice(at, 1);
      const why = typeof err.message === 'string' ? err.message : 'refused';
      const lostAnEnd = (i) => ids[graph.edges[i].source] === null || ids[graph.edges[i].target] === null;
      if (message.kind === 'cells') {
        failed = `the server refused cells: ${why}`;
      } else if (message.items.some(lostAnEnd)) {
        // Links sent before a failover was heard of may name cells the room lost with its old
        // owner: they go again once those cells are back.
        for (const i of message.items) edgeState[i] = 'pending';
        resent.links += message.items.length;
        nextEdge = Math.min(nextEdge, ...message.items);
      } else {
        for (const i of message.items) edgeState[i] = 'refused';
        pendingLinks -= message.items.length;
        refusals.push(`${message.items.length} link(s) refused by the server: ${why}`);
      }
      answered();
      return true;
    },

    /** A `failover` event: the room's data follows. */
    failover() {
      if (failed || this.done) return;
      if (!keepsAttrs) {
        failed = `the room moved to another server mid-import, and the server keeps no cell keys to resume by: ${cells} cells and ${links} links arrived`;
        return;
      }
      resyncing = true;
      since = null;
    },

    /** The page's connection was lost (client `me`): it resumes on the next hello's data. */
    lost(me) {
      if (failed || this.done) return;
      if (!keepsAttrs) {
        failed = `the connection was lost mid-import, and the server keeps no cell keys to resume by: ${cells} cells and ${links} links arrived`;
        return;
      }
      if (me) formerClients.add(me);
      resyncing = true;
      since = null;
    },

    /** The room's data (celldata.js) as the `data` message after a failover or a hello left it. */
    resynced(data) {
      if (resyncing) reconcile(data);
    },

    /**
     * Time (seconds) goes on: true when something may be sent now (what the room lacked, after
     * LEFTOVER_WAIT). A resync with no data for DATA_TIMEOUT goes on as if the room held none
     * of the import; a batch unanswered for ANSWER_TIMEOUT ends it.
     */
    tick(now, connected = true) {
      if (failed || (inFlight.length === 0 && !resyncing)) return false;
      if (since === null) {
        since = now;
        return false;
      }
      if (resendDue) {
        if (now - since < LEFTOVER_WAIT) return false;
        for (const { kind, items } of inFlight) {
          if (kind === 'cells') {
            resent.cells += items.length;
            for (const i of items) nodeSent[i] = false;
            nextNode = Math.min(nextNode, ...items);
          } else {
            resent.links += items.length;
            for (const i of items) edgeState[i] = 'pending';
            nextEdge = Math.min(nextEdge, ...items);
          }
        }
        inFlight = [];
        answered();
        return true;
      }
      if (resyncing) {
        if (!connected || now - since < DATA_TIMEOUT) return false;
        reconcile({ cells: new Map(), links: new Map() });
        return true;
      }
      if (now - since >= ANSWER_TIMEOUT) {
        failed = `no answer from the server for ${ANSWER_TIMEOUT} s: ${cells} cells and ${links} links arrived`;
        return true;
      }
      return false;
    },
  };
  return importer;
}
