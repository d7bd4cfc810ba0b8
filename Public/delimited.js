// An edge list's records and fields, as RFC 4180 has them (leniently): what graphfile.js reads
// an edge list with, as Sources/ImportTool/Reading/DelimitedText.swift does for `forcelayout
// import`; the golden graph files in Tests/fixtures/graphs/ hold the two to the same results.
// Pure, no DOM.
const BLANK = new Set([' ', '\t', '\v', '\f']);
const isBreak = (ch) => ch === '\n' || ch === '\r';

/**
 * An edge list's records of fields, read as RFC 4180 says, leniently (DelimitedText.swift reads
 * the same): a field that starts with `"` is quoted (it may hold the separator and line breaks,
 * and `""` in it is one `"`); a `"` anywhere else stays. Each record's separator is a tab if its
 * first line has one, else a comma if it has one, else runs of spaces. Fields are trimmed of
 * blanks; blank lines and lines that start with `#` (comments) are left out.
 */
export function recordsOf(text) {
  const records = [];
  let i = 0;
  while (i < text.length) {
    let j = i;
    while (j < text.length && BLANK.has(text[j])) j++;
    if (j >= text.length || isBreak(text[j]) || text[j] === '#') {
      while (j < text.length && !isBreak(text[j])) j++;
      i = lineEnd(text, j);
      continue;
    }
    const [fields, next] = recordOf(text, i);
    records.push(fields);
    i = next;
  }
  return records;
}

/** A line's fields (its first record's): split by tabs, else commas, else runs of spaces; "quotes" kept together. */
export function fieldsOf(line) {
  return recordsOf(line)[0] || [];
}

function recordOf(text, start) {
  const sep = separatorOf(text, start);
  const fields = [];
  let i = start;
  for (;;) {
    const [field, end] = fieldOf(text, i, sep);
    i = end;
    if (!(sep === ' ' && field === '')) fields.push(field);
    if (i >= text.length || isBreak(text[i])) return [fields, lineEnd(text, i)];
    i++;
  }
}

// Tab if the record's first line has one (a quoted field's line breaks do not end it), else comma, else space.
function separatorOf(text, start) {
  let comma = false;
  let quoted = false;
  let previous = '\n';
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      if (quoted && text[i + 1] === '"') i++;
      else if (quoted || previous === ',' || previous === '\t' || previous === '\n' || BLANK.has(previous)) quoted = !quoted;
    } else if (isBreak(ch) && !quoted) break;
    if (ch === '\t') return '\t';
    if (ch === ',') comma = true;
    previous = ch;
  }
  return comma ? ',' : ' ';
}

// One field from `start`, trimmed, and the index of the separator or line break after it (or the end).
function fieldOf(text, start, sep) {
  let i = start;
  while (i < text.length && text[i] !== sep && BLANK.has(text[i])) i++;
  let out = '';
  if (text[i] === '"') {
    i++;
    while (i < text.length) {
      if (text[i] === '"') {
        if (text[i + 1] !== '"') { i++; break; }
        i++;
      }
      out += text[i];
      i++;
    }
  }
  while (i < text.length && text[i] !== sep && !isBreak(text[i])) out += text[i++];
  return [trimBlanks(out), i];
}

function trimBlanks(s) {
  let a = 0;
  let b = s.length;
  while (a < b && BLANK.has(s[a])) a++;
  while (b > a && BLANK.has(s[b - 1])) b--;
  return s.slice(a, b);
}

// Past the line break at `i` (\n, \r\n or \r), if there is one.
function lineEnd(text, i) {
  if (i >= text.length) return i;
  return text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
}
