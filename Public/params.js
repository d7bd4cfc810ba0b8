// The layout parameters of PROTOCOL.md ("params" message) with their ranges, and how the
// page shows their values. Pure, no DOM.

export const PARAMS = [
  { name: 'stiffness', label: 'Stiffness', kind: 'number', min: 0, minExclusive: true, max: 1, step: 0.001 },
  { name: 'charge', label: 'Charge', kind: 'number', min: 0, max: 1000, step: 0.5 },
  { name: 'cellSize', label: 'Cell size', kind: 'number', min: 1, max: 200, step: 1 },
  { name: 'threshold', label: 'Threshold', kind: 'number', min: 0, max: 1e6, step: 0.01 },
  { name: 'tickRate', label: 'Steps/s', kind: 'number', min: 1, max: 120, step: 1 },
  { name: 'theta', label: 'Theta', kind: 'number', min: 0, max: 2, step: 0.05 },
  { name: 'collide', label: 'Collide', kind: 'bool' },
  { name: 'paused', label: 'Paused', kind: 'bool' },
];

export const PARAM_BY_NAME = new Map(PARAMS.map((p) => [p.name, p]));

/**
 * The value to send for `name` from what an input holds (a string or a boolean), clamped
 * into the protocol's range; undefined when it is not a usable value (the page then sends
 * nothing rather than a message the server must reject).
 */
export function parseParam(name, raw) {
  const spec = PARAM_BY_NAME.get(name);
  if (!spec) return undefined;
  if (spec.kind === 'bool') return typeof raw === 'boolean' ? raw : raw === 'true' || raw === 'on';
  if (raw === '' || raw === null || raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) return undefined;
  let v = Math.min(Math.max(n, spec.min), spec.max);
  if (spec.minExclusive && v <= spec.min) v = spec.step;
  return v;
}

/** A number as people read it: no exponent, at most 6 significant digits, no trailing zeros. */
export function formatNumber(v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return String(v);
  const decimals = Math.min(20, Math.max(0, 5 - Math.floor(Math.log10(Math.abs(v)))));
  let s = v.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** How a parameter's value reads in the page ("20", "0.02", "on", "off"). */
export function formatParam(name, v) {
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  return formatNumber(v);
}
