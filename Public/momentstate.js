// The recorded room at one moment, as a playback follows it (MomentState.swift, the parts a
// playback reads): built from a checkpoint (recording.js), then each event applied. Cells in
// ascending id order with their data (`{id, data, radius}`), links by their ends (celldata's
// linkKey, in the order they were made) with theirs (`{link, attrs}`), parameters by name, pins,
// and the checkpoint's positions. Pure.
import { linkKey } from './celldata.js';
import { wireText } from './wirejson.js';

const emptyData = () => ({ label: null, color: null, group: null, key: null, attrs: null });

export class MomentState {
  /** `checkpoint`: {at, seq, tick, state: {parameters, cells, links}}; `defaults`: parameters a state file may lack. */
  constructor(checkpoint, defaults = {}) {
    const { state } = checkpoint;
    this.defaults = defaults;
    this.parameters = { ...defaults, ...state.parameters };
    this.cells = new Map();
    this.pins = new Map();
    this.positions = new Map();
    for (const cell of state.cells) {
      this.cells.set(cell.id, { id: cell.id, data: { ...cell.data }, radius: cell.radius });
      this.positions.set(cell.id, { x: cell.x, y: cell.y });
      if (cell.pinned) this.pins.set(cell.id, { x: cell.x, y: cell.y });
    }
    // The links, and those of cells removed since (`unpruned`): dropped when `links` is read,
    // or when an undo brings one of the cells back (as the Swift does, so the order is its).
    this.linkStore = new Map();
    this.unpruned = new Set();
    for (const record of state.links) this.linkStore.set(linkKey(record.link.source, record.link.target), record);
    this.seq = checkpoint.seq;
  }

  /** The links, without those of removed cells (a copy then: reading changes nothing, as in the Swift). */
  get links() {
    if (this.unpruned.size === 0) return this.linkStore;
    const kept = new Map();
    for (const [ends, record] of this.linkStore) {
      if (!this.unpruned.has(record.link.source) && !this.unpruned.has(record.link.target)) kept.set(ends, record);
    }
    return kept;
  }

  /** The room after `envelope`'s event ({seq, event}, as recording.js reads it). */
  apply({ seq, event }) {
    this.seq = seq;
    const { detail } = event;
    switch (event.kind) {
      case 'added': {
        const given = new Map((detail.cells ?? []).map((r) => [r.id, r]));
        this.add(detail.ids, (id) => given.get(id));
        break;
      }
      case 'removed': case 'cleared': case 'deleted':
        this.remove(detail.ids);
        break;
      case 'updated':
        for (const { place, ...record } of detail.records) {
          if (!this.cells.has(record.id)) continue;
          // an update that moved a pinned cell moved its pin
          if (place && this.pins.has(record.id)) this.pins.set(record.id, { x: place.x, y: place.y });
          this.cells.set(record.id, record);
        }
        break;
      case 'linked':
        // only between cells in the room, as the room links them (and the Swift keeps them)
        for (const record of detail.links) {
          if (this.cells.has(record.link.source) && this.cells.has(record.link.target)) {
            this.linkStore.set(linkKey(record.link.source, record.link.target), record);
          }
        }
        break;
      case 'unlinked':
        for (const end of detail.ends) this.linkStore.delete(linkKey(end.source, end.target));
        break;
      case 'params':
        this.parameters = { ...this.defaults, ...detail.parameters };
        break;
      case 'pinned':
        if (this.cells.has(detail.id)) this.pins.set(detail.id, { x: detail.x, y: detail.y });
        break;
      case 'unpinned':
        this.pins.delete(detail.id);
        break;
      case 'failover': {
        const kept = new Set(detail.pinned);
        for (const id of [...this.pins.keys()]) if (!kept.has(id)) this.pins.delete(id);
        if (detail.parameters) this.parameters = { ...this.defaults, ...detail.parameters };
        break;
      }
      default:
        break;
    }
  }

  // New cells' ids are above every other; an undo's come back with theirs, so the ascending
  // order is made again then.
  add(ids, data) {
    if (this.unpruned.size > 0 && ids.some((id) => this.unpruned.has(id))) {
      this.linkStore = this.links;
      this.unpruned = new Set();
    }
    const last = [...this.cells.keys()].at(-1) ?? 0;
    for (const id of ids) this.cells.set(id, data(id) ?? { id, data: emptyData(), radius: null });
    if (ids.length > 0 && Math.min(...ids) < last) this.cells = new Map([...this.cells].sort((a, b) => a[0] - b[0]));
  }

  remove(ids) {
    for (const id of ids) {
      this.cells.delete(id);
      this.pins.delete(id);
      this.unpruned.add(id);
    }
  }
}

/** A room with nothing in it, of `parameters` (PlaybackPlan.empty). */
export function emptyCheckpoint(parameters) {
  return { at: 0, tick: 0, seq: 0, state: { parameters, cells: [], links: [] } };
}

// ---- equality, as the Swift's == of CellRecordData, LinkRecord and positions ----

const sameAttrs = (a, b) => (a === null || b === null ? a === b : wireText(a) === wireText(b));
const sameKey = (a, b) => typeof a === typeof b && a === b;

export function sameRecord(a, b) {
  const x = a.data;
  const y = b.data;
  return a.id === b.id && a.radius === b.radius && x.label === y.label && x.color === y.color && x.group === y.group
    && sameKey(x.key, y.key) && sameAttrs(x.attrs, y.attrs);
}

export function sameLink(a, b) {
  const x = a.link;
  const y = b.link;
  return x.source === y.source && x.target === y.target && x.distance === y.distance && x.strength === y.strength
    && sameAttrs(a.attrs, b.attrs);
}

export const samePoint = (a, b) => a.x === b.x && a.y === b.y;
