// Layout parameters described by the server's specs (hello.paramSpecs, docs/protocol.md):
// which specs the page can use, a value clamped and stepped into a spec's range, a typed
// value parsed, and how values read. The page has no parameter list of its own. Pure, no DOM.

const KINDS = new Set(['number', 'bool', 'choice']);
const CONTROLS = { number: new Set(['slider', 'field']), bool: new Set(['toggle']), choice: new Set(['menu']) };
const USUAL_CONTROL = { number: 'field', bool: 'toggle', choice: 'menu' };
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const finite = (v) => typeof v === 'number' && Number.isFinite(v);
const text = (v, fallback) => (typeof v === 'string' && v.trim() !== '' ? v : fallback);

/**
 * The specs of hello.paramSpecs the page can show, in the server's order, each a fresh
 * object {name, kind, label, description, default, control} and for numbers {min, max,
 * minExclusive, step} (step: a positive number or null), for choices {options} (the names,
 * in the server's order, each once). Anything else is left out: not an object, a name that
 * is not an identifier or comes twice, an unknown kind, a number without a finite range, a
 * choice without a usable option (a non-empty string). An unknown control falls back to the
 * kind's usual one; a default that is not of the spec's kind (or not an option) is undefined.
 */
export function normalizeSpecs(raw) {
  if (!Array.isArray(raw)) return [];
  const out = [];
  const seen = new Set();
  for (const s of raw) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) continue;
    if (typeof s.name !== 'string' || !NAME.test(s.name) || seen.has(s.name) || !KINDS.has(s.kind)) continue;
    const spec = {
      name: s.name,
      kind: s.kind,
      label: text(s.label, s.name),
      description: typeof s.description === 'string' ? s.description : '',
      control: CONTROLS[s.kind].has(s.control) ? s.control : USUAL_CONTROL[s.kind],
    };
    // the one physics it acts in ('cells' or 'graph'); absent: both
    if (typeof s.physics === 'string' && s.physics !== '') spec.physics = s.physics;
    if (s.kind === 'number') {
      if (!finite(s.min) || !finite(s.max) || s.min > s.max) continue;
      spec.min = s.min;
      spec.max = s.max;
      spec.minExclusive = s.minExclusive === true;
      spec.step = finite(s.step) && s.step > 0 ? s.step : null;
      if (spec.minExclusive && spec.min === spec.max) continue; // (a, a]: nothing to choose
      spec.default = finite(s.default) ? s.default : undefined;
    } else if (s.kind === 'choice') {
      const options = Array.isArray(s.options) ? s.options.filter((o) => typeof o === 'string' && o !== '') : [];
      spec.options = [...new Set(options)];
      if (spec.options.length === 0) continue;
      spec.default = spec.options.includes(s.default) ? s.default : undefined;
    } else {
      spec.default = typeof s.default === 'boolean' ? s.default : undefined;
    }
    seen.add(s.name);
    out.push(spec);
  }
  return out;
}

/** True when two lists of normalized specs describe the same controls. */
export function sameSpecs(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// digits after the point of a number as written (0.001 -> 3, 1e-7 -> 7, 20 -> 0)
function decimals(v) {
  if (!finite(v) || Number.isInteger(v)) return 0;
  const [mantissa, exp] = String(v).toLowerCase().split('e');
  const frac = (mantissa.split('.')[1] || '').length;
  return Math.max(0, frac - Number(exp || 0));
}

/**
 * A number spec's lowest allowed value: min, or with minExclusive the slider's first stop
 * min + step (without a step, a thousandth of the range above min).
 */
export function lowest(spec) {
  if (!spec.minExclusive) return spec.min;
  const low = spec.step ? tidy(spec.min + spec.step, spec) : spec.min + (spec.max - spec.min) / 1000;
  return Math.min(low, spec.max);
}

// a sum of steps written with no more decimals than the spec's numbers (0.020000000000000004 -> 0.02)
function tidy(v, spec) {
  const d = Math.min(20, Math.max(decimals(spec.min), decimals(spec.step ?? 0)));
  return Number(v.toFixed(d));
}

/** A number clamped into a number spec's range; with minExclusive, min or below becomes lowest(spec). */
export function clampToSpec(spec, n) {
  const v = Math.min(Math.max(n, spec.min), spec.max);
  return spec.minExclusive && v <= spec.min ? lowest(spec) : v;
}

/**
 * A number clamped into range and moved to the nearest slider stop (lowest(spec) + k·step),
 * written without float noise; without a step only clamped. Stops beyond max are not taken.
 */
export function snapToSpec(spec, n) {
  const v = clampToSpec(spec, n);
  if (!spec.step) return v;
  const low = lowest(spec);
  const k = Math.round((v - low) / spec.step);
  const snapped = tidy(low + k * spec.step, spec);
  return snapped > spec.max ? tidy(low + (k - 1) * spec.step, spec) : snapped;
}

/**
 * The value to send for a spec from what an input holds (a string or a boolean), clamped
 * into the spec's range; for a choice, the name itself if it is one of the options. Undefined
 * when it is not a usable value (the page then sends nothing rather than a message the
 * server must reject), and for a spec of unknown kind.
 */
export function parseValue(spec, raw) {
  if (!spec) return undefined;
  if (spec.kind === 'bool') return typeof raw === 'boolean' ? raw : raw === 'true' || raw === 'on';
  if (spec.kind === 'choice') return typeof raw === 'string' && spec.options.includes(raw) ? raw : undefined;
  if (spec.kind !== 'number') return undefined;
  if (raw === '' || raw === null || raw === undefined || typeof raw === 'boolean') return undefined;
  if (typeof raw === 'string' && raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) return undefined;
  return clampToSpec(spec, n);
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

/** How a parameter's value reads in the page ("20", "0.02", "on", "off", a choice's name "graph"). */
export function formatParam(name, v) {
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (typeof v === 'string') return v;
  return formatNumber(v);
}
