// A recording (`GET /export/ROOM.flhistory`, docs/history-format.md) read in the page, as the
// CLI's Recording.swift and HistoryFileFormat.swift read it: the header, then records framed
// by their length and CRC-32, each a checkpoint (the room whole), an event (its `event`
// message) or a keyframe (the cells' places, quantized as a v2 frame). Reading stops at the
// first record cut short or whose CRC is wrong (the writer stopped there): what came before is
// kept and `cutBytes` says how much was left. A file that is not a recording, or is damaged
// from its start, is refused in words (the CLI's own). Pure: bytes in, records out.
import { attrsOf, readEvent } from './recordingevent.js';

const HEADER = 'FLHIST1\n';
const TYPE = { checkpoint: 1, event: 2, keyframe: 3 };

// CRC-32 as zlib computes it (ISO-HDLC: reflected, polynomial 0xEDB88320), a byte at a time
// from a table made once.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** zlib's crc32 of `bytes` (a Uint8Array), as an unsigned 32-bit number. */
export function crc32(bytes, start = 0, end = bytes.length) {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Whether `bytes` start as a recording does (rather than a graph file). */
export function isRecording(bytes) {
  if (bytes.length < HEADER.length) return false;
  for (let i = 0; i < HEADER.length; i++) if (bytes[i] !== HEADER.charCodeAt(i)) return false;
  return true;
}

/**
 * The recording `bytes` (a Uint8Array) hold: {records, cutBytes}, each record
 * {type: 'checkpoint', at, tick, seq, state}, {type: 'event', seq, event} or
 * {type: 'keyframe', at, tick, seq, ids, box, quantized}. Throws an Error saying why when the
 * bytes are not a recording, or one damaged from its start.
 */
export function readRecording(bytes) {
  if (!isRecording(bytes)) throw new Error('not a forcelayout recording: a .flhistory file starts with "FLHIST1"');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records = [];
  let offset = HEADER.length;
  const ids = { current: [] }; // those of the last keyframe with ids or checkpoint
  for (;;) {
    const read = readRecord(bytes, view, offset, ids);
    if (read === null) break;
    offset = read.next;
    if (read.record) records.push(read.record);
  }
  if (records[0]?.type !== 'checkpoint') {
    if (records.length === 0) {
      throw new Error(offset < bytes.length
        ? `a damaged recording: its first record is not whole (${bytes.length - offset} bytes after the header)`
        : 'an empty recording: a header and no record');
    }
    throw new Error('a damaged recording: it does not start with a checkpoint of the room');
  }
  return { records, cutBytes: bytes.length - offset };
}

/** Events and keyframes a recording holds (checkpoints aside). */
export function recordingCounts({ records }) {
  let events = 0;
  let keyframes = 0;
  for (const r of records) {
    if (r.type === 'event') events++;
    else if (r.type === 'keyframe') keyframes++;
  }
  return { events, keyframes };
}

// The record framed at `offset`: {record, next}, the record null when of an unknown type or
// unreadable (skipped); null when none is whole there (its length runs past the end, or its
// CRC is wrong).
function readRecord(bytes, view, offset, ids) {
  if (bytes.length - offset < 9) return null;
  const length = view.getUint32(offset, true);
  if (length < 1 || length > bytes.length - offset - 8) return null;
  if (crc32(bytes, offset + 8, offset + 8 + length) !== view.getUint32(offset + 4, true)) return null;
  const next = offset + 8 + length;
  const type = bytes[offset + 8];
  const start = offset + 9;
  if (type === TYPE.checkpoint) {
    const point = readCheckpoint(bytes, view, start, next);
    if (point) ids.current = point.state.cells.map((c) => c.id);
    return { record: point, next };
  }
  if (type === TYPE.event) return { record: readEvent(utf8(bytes, start, next)), next };
  if (type === TYPE.keyframe) return { record: readKeyframe(bytes, view, start, next, ids), next };
  return { record: null, next };
}

const utf8 = (bytes, start, end) => new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(start, end));
const i64 = (view, at) => Number(view.getBigInt64(at, true));
const u64 = (view, at) => Number(view.getBigUint64(at, true));

// `i64 at, i64 tick, u64 seq`, then the room as a state file holds it (JSON).
function readCheckpoint(bytes, view, start, end) {
  if (end - start <= 24) return null;
  let file;
  try {
    file = JSON.parse(utf8(bytes, start + 24, end));
  } catch {
    return null;
  }
  const state = readState(file);
  return state && { type: 'checkpoint', at: i64(view, start), tick: i64(view, start + 8), seq: u64(view, start + 16), state };
}

// What a checkpoint's state file says of the room (StateFile+Reading.swift, the parts a
// playback needs): parameters by name, cells (ascending) with their data, links with theirs.
function readState(file) {
  const layout = file?.layout;
  if (file?.format !== 'forcelayout-state' || !Array.isArray(layout?.cells) || typeof layout.parameters !== 'object') return null;
  const version = Number(file.version);
  const cells = [];
  for (const c of layout.cells) {
    if (!Number.isInteger(c?.id) || typeof c.x !== 'number' || typeof c.y !== 'number') return null;
    cells.push({ id: c.id, x: c.x, y: c.y, pinned: c.pinned === true, radius: typeof c.radius === 'number' ? c.radius : null, data: cellData(c) });
  }
  const links = [];
  for (const l of layout.links ?? []) {
    if (!Number.isInteger(l?.source) || !Number.isInteger(l?.target)) return null;
    let distance = typeof l.distance === 'number' ? l.distance : null;
    // Up to version 5 every link was stored with a distance, 30 when its client gave none.
    if (version <= 5 && distance === 30) distance = null;
    links.push({ link: { source: l.source, target: l.target, distance, strength: typeof l.strength === 'number' ? l.strength : null },
      attrs: attrsOf(l.attrs) });
  }
  return { parameters: { ...layout.parameters }, nextID: layout.nextID, cells, links };
}

// A cell's data as the server keeps it (`CellData`): each field null when not set.
function cellData(c) {
  const text = (v) => (typeof v === 'string' ? v : null);
  const key = typeof c.key === 'string' || (typeof c.key === 'number' && Number.isFinite(c.key)) ? c.key : null;
  return { label: text(c.label), color: text(c.color), group: text(c.group), key, attrs: attrsOf(c.attrs) };
}

// `i64 at, i64 tick, u64 seq, f32 minX minY maxX maxY, u32 n, u8 flags`, the ids when flag 0
// is set (else those before it), then n × (u16 qx, u16 qy).
function readKeyframe(bytes, view, start, end, ids) {
  if (end - start < 45) return null;
  const count = view.getUint32(start + 40, true);
  const withIDs = (bytes[start + 44] & 1) === 1;
  if (end - start !== 45 + count * (withIDs ? 8 : 4)) return null;
  let cursor = start + 45;
  if (withIDs) {
    ids.current = Array.from({ length: count }, (_, k) => view.getUint32(cursor + 4 * k, true));
    cursor += 4 * count;
  }
  if (ids.current.length !== count) return null;
  const quantized = new Uint16Array(count * 2);
  for (let k = 0; k < count * 2; k++) quantized[k] = view.getUint16(cursor + 2 * k, true);
  const box = { minX: view.getFloat32(start + 24, true), minY: view.getFloat32(start + 28, true),
    maxX: view.getFloat32(start + 32, true), maxY: view.getFloat32(start + 36, true) };
  return { type: 'keyframe', at: i64(view, start), tick: i64(view, start + 8), seq: u64(view, start + 16), ids: ids.current, box, quantized };
}

/** A keyframe's positions by id, as the frame's reader decodes them (Keyframe.positions). */
export function keyframePositions(frame) {
  // the same double arithmetic as the Swift: the f32 bounds widened, then origin + q · step
  const stepX = (frame.box.maxX - frame.box.minX) / 65535;
  const stepY = (frame.box.maxY - frame.box.minY) / 65535;
  const positions = new Map();
  frame.ids.forEach((id, k) => {
    if (k * 2 + 1 < frame.quantized.length) {
      positions.set(id, { x: frame.box.minX + frame.quantized[k * 2] * stepX, y: frame.box.minY + frame.quantized[k * 2 + 1] * stepY });
    }
  });
  return positions;
}

/** The span the recording covers, ms from its first checkpoint to its last record. */
export function recordingSpan({ records }) {
  const start = records[0].at;
  let end = start;
  for (const r of records) end = Math.max(end, r.type === 'event' ? r.event.at : r.at);
  return end - start;
}
