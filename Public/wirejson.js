// A message's JSON text exactly as the server's own writer (JSONWriter.swift) and the CLI
// (RequestEncoding.swift) write it: members in the order given, no white space, numbers in
// their shortest form (integral ones without a fraction, Swift's exponents: `1e-05`), strings
// escaped as JSONWriter escapes them. The playback plan (playbackplan.js) measures its messages
// by it, so it splits them where the CLI does, and its fixture compares it byte for byte with
// the Swift's. (The page still sends with JSON.stringify: the server reads the same values.)
// Pure.

/** A finite number as JSONWriter.number writes it (non-finite: 0, never expected). */
export function wireNumber(value) {
  if (!Number.isFinite(value)) return '0';
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value === 0 ? 0 : value);
  const magnitude = Math.abs(value);
  // Swift's `description` turns to an exponent below 1e-4 and above 2^53; JavaScript's
  // String(), below 1e-6 and from 1e21 on, and writes one digit of exponent where Swift writes two.
  if (magnitude < 1e-4 || magnitude > 2 ** 53) {
    const [mantissa, exponent] = value.toExponential().split('e');
    const sign = exponent[0];
    const digits = exponent.slice(1).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  const text = String(value);
  return Number.isInteger(value) ? `${text}.0` : text;
}

/** A string as JSONWriter.string writes it: `"`, `\`, \n \r \t escaped, other controls as \u00XX. */
export function wireString(text) {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20) out += `\\u00${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Any JSON value: objects' members in their order (undefined ones left out), as JSONWriter.value. */
export function wireText(value) {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return wireNumber(value);
  if (typeof value === 'string') return wireString(value);
  if (Array.isArray(value)) return `[${value.map(wireText).join(',')}]`;
  const members = [];
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) members.push(`${wireString(key)}:${wireText(member)}`);
  }
  return `{${members.join(',')}}`;
}

const encoder = new TextEncoder();

/** Bytes of the message's wire text (UTF-8). */
export function wireBytes(value) {
  return encoder.encode(wireText(value)).length;
}
