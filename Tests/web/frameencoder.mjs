// A v2 binary frame encoder for the tests only (the server encodes frames; the page only
// decodes them, Public/binaryframe.js): the layout of docs/protocol.md, little-endian.
// encodeFrame({tick, v, at, ids, owners, xy}) -> ArrayBuffer; with `ids` (an array) the
// frame carries the membership section (ids and the owners runs as JSON). The bounding box
// is the tight box of xy rounded outward to f32, each coordinate quantized to the nearest
// of its 65536 steps.

const f32 = Math.fround;

// the nearest f32 at or below (down) / at or above (up) x
function f32Toward(x, down) {
  const r = f32(x);
  if (down ? r <= x : r >= x) return r;
  if (r === 0) return f32(down ? -1e-45 : 1e-45);
  const a = new Float32Array([r]);
  const bits = new Int32Array(a.buffer);
  bits[0] += (r > 0) === down ? -1 : 1;
  return a[0];
}

/** The tight box of xy, rounded outward to f32: [minX, minY, maxX, maxY] (zeros when empty). */
export function bounds(xy) {
  if (xy.length === 0) return [0, 0, 0, 0];
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < xy.length; i += 2) {
    minX = Math.min(minX, xy[i]);
    maxX = Math.max(maxX, xy[i]);
    minY = Math.min(minY, xy[i + 1]);
    maxY = Math.max(maxY, xy[i + 1]);
  }
  return [f32Toward(minX, true), f32Toward(minY, true), f32Toward(maxX, false), f32Toward(maxY, false)];
}

function quantize(value, lo, hi) {
  if (!(hi > lo)) return 0;
  return Math.min(65535, Math.max(0, Math.round(((value - lo) / (hi - lo)) * 65535)));
}

export function encodeFrame({ tick = 0, v = 0, at = 0, ids = null, owners = [], xy }) {
  const n = xy.length / 2;
  const json = ids ? new TextEncoder().encode(JSON.stringify(owners)) : new Uint8Array(0);
  const membership = ids ? 4 * n + 4 + json.length : 0;
  const buffer = new ArrayBuffer(40 + membership + 4 * n);
  const dv = new DataView(buffer);
  const [minX, minY, maxX, maxY] = bounds(xy);
  dv.setUint8(0, 1);
  dv.setUint8(1, ids ? 1 : 0);
  dv.setUint32(4, tick, true);
  dv.setUint32(8, v, true);
  dv.setFloat64(12, at, true);
  [minX, minY, maxX, maxY].forEach((b, i) => dv.setFloat32(20 + 4 * i, b, true));
  dv.setUint32(36, n, true);
  let at_ = 40;
  if (ids) {
    for (const id of ids) at_ = (dv.setUint32(at_, id, true), at_ + 4);
    dv.setUint32(at_, json.length, true);
    new Uint8Array(buffer, at_ + 4, json.length).set(json);
    at_ += 4 + json.length;
  }
  for (let i = 0; i < n; i++, at_ += 4) {
    dv.setUint16(at_, quantize(xy[2 * i], minX, maxX), true);
    dv.setUint16(at_ + 2, quantize(xy[2 * i + 1], minY, maxY), true);
  }
  return buffer;
}
