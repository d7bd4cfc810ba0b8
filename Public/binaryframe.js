// The binary `frame` of protocol v2, read straight from the bytes of the WebSocket message
// (an ArrayBuffer): a 40-byte head, then, when flag bit 0 is set, the membership section
// (n u32 ids, a u32 length L and L bytes of UTF-8 JSON: the v1 `owners` runs), then n
// (u16 qx, u16 qy) pairs quantized over the frame's bounding box. All little-endian. No
// parse step: the head is read with a DataView, ids and positions are typed-array views of
// the same bytes (copied only when a view would be misaligned, or on a big-endian host).
// Pure, no DOM. The layout is issue 12's (docs/protocol.md, protocol v2).
//
//   offset 0 u8 kind = 1 · 1 u8 flags · 2 u16 reserved · 4 u32 tick · 8 u32 v · 12 f64 at
//   20 f32 minX, minY, maxX, maxY · 36 u32 n · 40 [membership] · n x (u16 qx, u16 qy)

export const FRAME_KIND = 1;
export const HEAD_BYTES = 40;
export const MEMBERSHIP = 1; // flags bit 0
export const QUANTA = 65535; // a coordinate's steps across its bounding box

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const utf8 = new TextDecoder('utf-8');

// `count` little-endian values of `Type` (Uint16Array, Uint32Array) at byte `offset`: a view
// of the bytes when aligned on this little-endian host, else a copy.
function viewOf(Type, buffer, offset, count) {
  const size = Type.BYTES_PER_ELEMENT;
  if (LITTLE_ENDIAN && offset % size === 0) return new Type(buffer, offset, count);
  const out = new Type(count);
  const dv = new DataView(buffer, offset, count * size);
  const get = size === 2 ? (i) => dv.getUint16(2 * i, true) : (i) => dv.getUint32(4 * i, true);
  for (let i = 0; i < count; i++) out[i] = get(i);
  return out;
}

function readHead(dv) {
  return {
    kind: dv.getUint8(0),
    flags: dv.getUint8(1),
    tick: dv.getUint32(4, true),
    v: dv.getUint32(8, true),
    at: dv.getFloat64(12, true),
    minX: dv.getFloat32(20, true),
    minY: dv.getFloat32(24, true),
    maxX: dv.getFloat32(28, true),
    maxY: dv.getFloat32(32, true),
    n: dv.getUint32(36, true),
  };
}

// The membership section at byte 40: {ids, owners, end} or null when it does not fit.
// `owners` is the parsed JSON (null when it is not JSON).
function readMembership(buffer, dv, n) {
  const lengthAt = HEAD_BYTES + 4 * n;
  if (lengthAt + 4 > buffer.byteLength) return null;
  const length = dv.getUint32(lengthAt, true);
  const end = lengthAt + 4 + length;
  if (end > buffer.byteLength) return null;
  let owners = null;
  try {
    owners = JSON.parse(utf8.decode(new Uint8Array(buffer, lengthAt + 4, length)));
  } catch {
    owners = null;
  }
  return { ids: viewOf(Uint32Array, buffer, HEAD_BYTES, n), owners, end };
}

/**
 * A v2 frame from its bytes: {tick, v, at, minX, minY, maxX, maxY, n, ids, owners, q}, with
 * ids (Uint32Array) and owners (the JSON runs) null when the frame has no membership
 * section, and q the 2n quantized coordinates (Uint16Array qx0, qy0, qx1, …). Null when the
 * bytes are not a whole frame (another kind, cut short, a wrong length).
 */
export function decodeFrame(buffer) {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < HEAD_BYTES) return null;
  const dv = new DataView(buffer);
  const head = readHead(dv);
  if (head.kind !== FRAME_KIND) return null;
  const n = head.n;
  let ids = null;
  let owners = null;
  let at = HEAD_BYTES;
  if (head.flags & MEMBERSHIP) {
    const m = readMembership(buffer, dv, n);
    if (m === null) return null;
    ({ ids, owners, end: at } = m);
  }
  if (at + 4 * n !== buffer.byteLength) return null;
  const q = viewOf(Uint16Array, buffer, at, 2 * n);
  return { ...head, ids, owners, q };
}

/**
 * The world positions of a decoded frame (x0, y0, x1, y1, …) into `out` (a Float64Array of
 * 2n, else a new one): x = minX + qx * (maxX - minX) / 65535, likewise y.
 */
export function dequantize(frame, out) {
  const { q, n, minX, minY } = frame;
  const xy = out && out.length === 2 * n ? out : new Float64Array(2 * n);
  const sx = (frame.maxX - minX) / QUANTA;
  const sy = (frame.maxY - minY) / QUANTA;
  for (let i = 0; i < 2 * n; i += 2) {
    xy[i] = minX + q[i] * sx;
    xy[i + 1] = minY + q[i + 1] * sy;
  }
  return xy;
}
