// node --test Tests/web/  — the kinds of event a recording may hold (Public/recordingevent.js)
// are the server's (EventKind), as the server writes them into Tests/fixtures/event-kinds.json
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { KINDS } from '../../Public/recordingevent.js';

test('a recording\u2019s event kinds are every kind the server has', () => {
  const kinds = JSON.parse(readFileSync(new URL('../fixtures/event-kinds.json', import.meta.url), 'utf8'));
  assert.deepEqual([...KINDS].sort(), [...kinds].sort());
});
