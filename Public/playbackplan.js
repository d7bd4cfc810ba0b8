// What playing a recording into an empty room sends, in order: a port of the CLI's
// PlaybackPlan.swift, kept to its structure and names so the two read side by side (and
// Tests/fixtures/playback-sample.plan.json, written by the Swift, holds the JS to it message for
// message). The room paused first (`params` with `paused:true`, and the checkpoint's
// parameters) so the cells stay where the recording puts them; its first checkpoint as cells
// (at their places), links and pins; then each event as the change that makes it (`add`,
// `remove`, `clear`, `update`, `link`, `unlink`, `params`, `pin`, `unpin`) at its time, each
// keyframe as `update`s of the cells' places, and a later checkpoint (a restore opens one) as
// the changes from the room as played to it; at the end `paused` as the recording left it. It
// follows the recorded room (momentstate.js) as it goes, so it sends only what changes
// something (each message is answered by its event), and splits what one event did into
// messages within the server's limits (maxAddPerMessage, maxMessageBytes). Each message is
// {command, answer, offset, adds}: the command in the recording's ids (playback.js maps them to
// the room's), the event kind that answers it, ms after the recording's start it is due, and
// the recording's ids of the cells it adds (its `added` gives their ids in the room). Pure.
import { keyframePositions } from './recording.js';
import { linkKey } from './celldata.js';
import { MomentState, emptyCheckpoint, sameLink, samePoint, sameRecord } from './momentstate.js';
import { wireBytes } from './wirejson.js';

/** Bytes a message's `ref` and slack take beside its command (`play-N`). */
export const REF_ALLOWANCE = 40;
const DEFAULT_LIMITS = { maxAddPerMessage: 1000, maxMessageBytes: 65536 };

/**
 * The plan of `recording` (recording.js) for a room whose parameters are `roomParameters` (its
 * hello's, by name in the server's table order: that order is the `params` messages') under
 * the server's `limits` (hello.limits). `defaults`: each parameter's default (hello.paramSpecs),
 * for a state file that lacks one. Returns {messages, duration, pauses}: `pauses`, whether its
 * first message pauses a room that was not.
 */
export function makePlaybackPlan(recording, { roomParameters, limits = {}, defaults = {} }) {
  const { records } = recording;
  const first = records[0];
  if (first?.type !== 'checkpoint') throw new Error('a recording starts with a checkpoint');
  const maxAdd = Number(limits.maxAddPerMessage) || DEFAULT_LIMITS.maxAddPerMessage;
  const maxBytes = Number(limits.maxMessageBytes) || DEFAULT_LIMITS.maxMessageBytes;
  const table = Object.keys(roomParameters);
  const messages = [];
  // The parameters the room has now: the recorded ones, but paused.
  let room = { ...roomParameters };
  // The recorded room as played so far.
  let model = new MomentState(emptyCheckpoint(roomParameters), defaults);
  // Where each cell was last put (by an add, an update or a pin): a keyframe that leaves it
  // there sends nothing for it.
  let placed = new Map();
  let offset = 0;
  const start = first.at;

  function advance(at) {
    offset = Math.max(offset, at - start);
  }

  function append(command, answer, adds = []) {
    messages.push({ command, answer, offset, adds });
  }

  // ---- events ----

  function play(event, seeds) {
    const { detail } = event;
    switch (event.kind) {
      case 'added': {
        const given = new Map((detail.cells ?? []).map((r) => [r.id, r]));
        add(detail.ids.map((id) => [id, given.get(id) ?? emptyRecord(id), seeds.get(id)]));
        break;
      }
      case 'removed':
        remove(detail.ids.filter((id) => model.cells.has(id)));
        break;
      case 'cleared': case 'deleted':
        if (model.cells.size === 0) return;
        append({ type: 'clear' }, 'cleared');
        placed = new Map();
        break;
      case 'updated': {
        const records = detail.records.map(({ place, ...record }) => record);
        update(records.filter((record) => model.cells.has(record.id) && !sameRecord(model.cells.get(record.id), record)));
        // an update that moved a pinned cell moved its pin
        for (const { id, place } of detail.records) {
          if (place && model.cells.has(id) && model.pins.has(id)) pin(id, place.x, place.y);
        }
        break;
      }
      case 'linked': {
        const links = model.links;
        link(detail.links.filter((r) => model.cells.has(r.link.source) && model.cells.has(r.link.target)
          && !links.has(linkKey(r.link.source, r.link.target))));
        break;
      }
      case 'unlinked': {
        const links = model.links;
        unlink(detail.ends.filter((e) => links.has(linkKey(e.source, e.target))));
        break;
      }
      case 'params':
        params(detail.parameters);
        break;
      case 'pinned':
        if (!model.cells.has(detail.id)) return;
        pin(detail.id, detail.x, detail.y);
        break;
      case 'unpinned':
        if (model.pins.has(detail.id)) append({ type: 'unpin', id: detail.id }, 'unpinned');
        break;
      case 'failover': {
        const kept = new Set(detail.pinned);
        for (const id of sortedKeys(model.pins)) if (!kept.has(id)) append({ type: 'unpin', id }, 'unpinned');
        if (detail.parameters) params(detail.parameters);
        break;
      }
      default:
        // settled, woke, joined, left, saved, unsaved, access: nothing a room is told to do;
        // restored: the checkpoint before it in the file holds the room it made.
        break;
    }
  }

  // A keyframe: every unpinned cell it shows is put at its place (those left where they were
  // last put send nothing).
  function place(frame) {
    const positions = keyframePositions(frame);
    const edits = [];
    for (const id of frame.ids) {
      if (!model.cells.has(id) || model.pins.has(id)) continue;
      const found = positions.get(id);
      if (!found) continue;
      const position = rounded(found);
      const last = placed.get(id);
      if (last && samePoint(last, position)) continue;
      edits.push({ id, x: position.x, y: position.y });
      placed.set(id, position);
    }
    for (const batch of batches(edits, (cells) => ({ type: 'update', cells }))) append({ type: 'update', cells: batch }, 'updated');
  }

  // ---- becoming a checkpoint ----

  // The changes from the room as played to `target` (a checkpoint's room), then `target` is the
  // room as played.
  function become(target) {
    params(target.parameters);
    remove([...model.cells.keys()].filter((id) => !target.cells.has(id)));
    const targetLinks = target.links;
    const modelLinks = model.links;
    const gone = [];
    for (const [ends, record] of modelLinks) {
      const [source, target2] = [Math.min(record.link.source, record.link.target), Math.max(record.link.source, record.link.target)];
      const there = targetLinks.get(ends);
      if (target.cells.has(source) && target.cells.has(target2) && !(there && sameLink(there, record))) gone.push({ source, target: target2 });
    }
    unlink(gone);
    add([...target.cells.values()].filter((r) => !model.cells.has(r.id))
      .map((r) => [r.id, r, target.pins.get(r.id) ?? target.positions.get(r.id)]));
    update([...target.cells.values()].filter((r) => model.cells.has(r.id) && !sameRecord(model.cells.get(r.id), r)));
    link([...targetLinks].filter(([ends, record]) => !(modelLinks.has(ends) && sameLink(modelLinks.get(ends), record))).map(([, r]) => r));
    for (const id of sortedKeys(model.pins)) {
      if (!target.pins.has(id) && target.cells.has(id)) append({ type: 'unpin', id }, 'unpinned');
    }
    for (const id of target.cells.keys()) {
      const held = target.pins.get(id);
      if (!held) continue;
      const was = model.pins.get(id);
      if (was && samePoint(was, held)) continue;
      pin(id, held.x, held.y);
    }
    const edits = [];
    for (const id of target.cells.keys()) {
      if (!model.cells.has(id) || target.pins.has(id) || !target.positions.has(id)) continue;
      const position = rounded(target.positions.get(id));
      const last = placed.get(id);
      if (last && samePoint(last, position)) continue;
      edits.push({ id, x: position.x, y: position.y });
      placed.set(id, position);
    }
    for (const batch of batches(edits, (cells) => ({ type: 'update', cells }))) append({ type: 'update', cells: batch }, 'updated');
    model = target;
  }

  // ---- changes ----

  // `recorded` as the room's parameters, but paused: what differs from the room's now, in the
  // server's table order.
  function params(recorded) {
    const target = { ...recorded, paused: true };
    const change = { type: 'params' };
    let changed = false;
    for (const name of table) {
      if (target[name] === undefined || target[name] === room[name]) continue;
      change[name] = target[name];
      changed = true;
    }
    if (!changed) return;
    room = { ...room, ...target };
    append(change, 'params');
  }

  // [id, record, at] each: at its place when it has one (rounded), else where the server puts it.
  function add(cells) {
    const news = cells.map(([id, record, at]) => {
      const point = at ? rounded(at) : null;
      if (point) placed.set(id, point);
      return [id, newCell(record, point)];
    });
    for (const batch of batches(news, (items) => addCommand(items.map((n) => n[1])))) {
      append(addCommand(batch.map((n) => n[1])), 'added', batch.map((n) => n[0]));
    }
  }

  function remove(ids) {
    for (const id of ids) placed.delete(id);
    for (const batch of batches(ids, (items) => ({ type: 'remove', ids: items }))) append({ type: 'remove', ids: batch }, 'removed');
  }

  // Each record's data and radius set whole (a field it lacks put back to its default).
  function update(records) {
    const edits = records.map(edit);
    for (const batch of batches(edits, (cells) => ({ type: 'update', cells }))) append({ type: 'update', cells: batch }, 'updated');
  }

  function link(records) {
    const items = records.map(linkItem);
    for (const batch of batches(items, (links) => ({ type: 'link', links }))) append({ type: 'link', links: batch }, 'linked');
  }

  function unlink(ends) {
    const items = ends.map((e) => ({ source: e.source, target: e.target }));
    for (const batch of batches(items, (links) => ({ type: 'unlink', links }))) append({ type: 'unlink', links: batch }, 'unlinked');
  }

  function pin(id, x, y) {
    append({ type: 'pin', id, x, y }, 'pinned');
    placed.set(id, { x, y });
  }

  // ---- sizes ----

  // `items` in runs that each make one message within the server's limits (`make` writes a
  // run's command): at most maxAddPerMessage items, at most maxMessageBytes bytes.
  function batches(items, make) {
    if (items.length === 0) return [];
    const empty = wireBytes(make([]));
    const runs = [];
    let run = [];
    let bytes = empty + REF_ALLOWANCE;
    for (const item of items) {
      const size = wireBytes(make([item])) - empty + 1;
      if (run.length > 0 && (run.length >= maxAdd || bytes + size > maxBytes)) {
        runs.push(run);
        run = [];
        bytes = empty + REF_ALLOWANCE;
      }
      run.push(item);
      bytes += size;
    }
    runs.push(run);
    return runs;
  }

  // ---- the recording, record by record ----

  const seeds = seedsOf(records);
  become(new MomentState(first, defaults));
  let checkpointSeq = first.seq;
  records.forEach((record, index) => {
    if (index === 0) return;
    if (record.type === 'checkpoint') {
      advance(record.at);
      become(new MomentState(record, defaults));
      checkpointSeq = record.seq;
    } else if (record.type === 'event') {
      // A checkpoint includes the events up to its seq (a restore's own among them).
      if (record.seq <= checkpointSeq) return;
      advance(record.event.at);
      play(record.event, seeds.get(index) ?? new Map());
      model.apply(record);
    } else {
      advance(record.at);
      place(record);
    }
  });
  if (model.parameters.paused !== true) {
    room = { ...room, paused: false };
    append({ type: 'params', paused: false }, 'params');
  }
  return { messages, duration: offset, pauses: roomParameters.paused !== true };
}

// ---- the messages' forms (RequestEncoding.swift's members, in its order) ----

const emptyRecord = (id) => ({ id, data: { label: null, color: null, group: null, key: null, attrs: null }, radius: null });

function addCommand(cells) {
  return { type: 'add', cells, spawn: 'random' };
}

// A new cell of `add`: its data's fields that are set (cellFields' order), then its place.
function newCell(record, point) {
  const { data } = record;
  const cell = {};
  if (data.label !== null) cell.label = data.label;
  if (record.radius !== null) cell.radius = record.radius;
  if (data.color !== null) cell.color = data.color;
  if (data.group !== null) cell.group = data.group;
  if (data.key !== null) cell.key = data.key;
  if (data.attrs !== null) cell.attrs = data.attrs;
  if (point) {
    cell.x = point.x;
    cell.y = point.y;
  }
  return cell;
}

/** An `update` edit setting every field of `record` (null: back to its default), PlaybackPlan.edit. */
export function edit(record) {
  const { data } = record;
  return { id: record.id, label: data.label, color: data.color, group: data.group, radius: record.radius, key: data.key, attrs: data.attrs };
}

function linkItem(record) {
  const { link } = record;
  const item = { source: link.source, target: link.target };
  if (link.distance !== null) item.distance = link.distance;
  if (link.strength !== null) item.strength = link.strength;
  if (record.attrs !== null) item.attrs = record.attrs;
  return item;
}

/** A tenth of a thousandth: well within a keyframe's quantization, and short on the wire (Swift's rounding: half away from zero). */
export function rounded({ x, y }) {
  const round = (v) => (Math.sign(v) * Math.round(Math.abs(v * 10000))) / 10000;
  return { x: round(x), y: round(y) };
}

const sortedKeys = (map) => [...map.keys()].sort((a, b) => a - b);

// Where each added cell is first seen (the first keyframe after its `added` that shows it), by
// the index of that event's record: it is added there, not somewhere at random.
export function seedsOf(records) {
  const seeds = new Map();
  const waiting = new Map();
  records.forEach((record, index) => {
    if (record.type === 'event') {
      if (record.event.kind === 'added') for (const id of record.event.detail.ids) waiting.set(id, index);
    } else if (record.type === 'keyframe' && waiting.size > 0) {
      const positions = keyframePositions(record);
      for (const [id, at] of [...waiting]) {
        const position = positions.get(id);
        if (!position) continue;
        if (!seeds.has(at)) seeds.set(at, new Map());
        seeds.get(at).set(id, position);
        waiting.delete(id);
      }
    }
  });
  return seeds;
}
