// node --test Tests/web/  — what a mistyped room name is told, as cases in
// Tests/fixtures/room-names.json (typed -> message, suggestion; null message: valid), which
// the server's 404 page for /r/NAME and `forcelayout import` say too
// (LayoutCoreTests/RoomNameCheckTests asserts them against RoomNameCheck). The page's wording
// is the reference; after a deliberate change:
//     FORCELAYOUT_WRITE_FIXTURES=1 node --test Tests/web/roomnames.test.mjs
// then make the Swift side follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { checkRoomName } from '../../Public/room.js';

const FILE = new URL('../fixtures/room-names.json', import.meta.url);
const TYPED = ['demo', '  demo\n', '\u00a0demo\u2028', '\ufeffdemo', 'x'.repeat(40), 'main', '0_', '', '   ', 'Demo', 'DEMO',
  'my room', 'My Room!', '-x', '_', '__', 'x'.repeat(41), `${'x'.repeat(39)} y`, 'A'.repeat(80), 'caf\u00e9', '!!!', '../etc',
  '<script>', '<script>alert(1)</script>', 'a/b', 'demo/', 'nope.js', 'main.js', 'a.b', '%41', 'r/demo', 'Hello World',
  '\u00c9t\u00e9 2025', '\u65e5\u672c', '\u{1F600}party', '\ufb01le', '\uff24\uff25\uff2d\uff2f', '\u0130stanbul', '\u0430bc',
  'a\u0000b', 'tab\there', 'a--b-', 'x-', '-', 'Stra\u00dfe', '\u2126mega', 'ok\u0301', "quote\"'&"];

function cases() {
  return TYPED.map((typed) => {
    const r = checkRoomName(typed);
    return r.ok ? { typed, message: null, suggestion: null, name: r.name } : { typed, message: r.message, suggestion: r.suggestion };
  });
}

test('Tests/fixtures/room-names.json holds what the page tells a mistyped name', () => {
  const now = cases();
  if (process.env.FORCELAYOUT_WRITE_FIXTURES === '1') writeFileSync(FILE, `${JSON.stringify(now, null, 1)}\n`);
  assert.deepEqual(JSON.parse(readFileSync(FILE, 'utf8')), now);
});

test('the fixture holds valid names, each kind of wrong one, and names with no suggestion', () => {
  const fixture = JSON.parse(readFileSync(FILE, 'utf8'));
  const messages = fixture.map((c) => c.message);
  assert.ok(messages.includes(null));
  for (const start of ['Type a room name', 'Use only', 'Room names are lower case', 'Start with', 'At most 40']) {
    assert.ok(messages.some((m) => m?.startsWith(start)), start);
  }
  assert.ok(fixture.some((c) => c.message && c.suggestion === null));
  assert.deepEqual(fixture.find((c) => c.typed === '<script>'), {
    typed: '<script>', message: 'Use only a\u2013z, 0\u20139, - and _ (no spaces). Try \u201cscript\u201d.', suggestion: 'script',
  });
});
