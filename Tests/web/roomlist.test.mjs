// node --test Tests/web/  — what the room switcher shows of GET /rooms (Public/roomlist.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ROWS, cells, people, roomRows, roomSummary } from '../../Public/roomlist.js';

const listing = {
  rooms: [
    { name: 'demo', clients: 2, cells: 500, settled: false, tick: 1234 },
    { name: 'main', clients: 1, cells: 12000, settled: true, tick: 9 },
    { name: 'quiet', clients: 0, cells: 1, settled: true, tick: 3 },
  ],
};

test('one row per room, in the server order, the current room marked, each a link to its page', () => {
  assert.deepEqual(roomRows(listing, 'main'), [
    { name: 'demo', href: '/r/demo', clients: 2, cells: 500, detail: '2 people \u00b7 500 cells', current: false },
    { name: 'main', href: '/', clients: 1, cells: 12000, detail: '1 person \u00b7 12,000 cells', current: true },
    { name: 'quiet', href: '/r/quiet', clients: 0, cells: 1, detail: 'no one \u00b7 1 cell', current: false },
  ]);
  assert.deepEqual(roomRows(listing, 'demo').map((r) => r.current), [true, false, false]);
  assert.deepEqual(roomRows(listing, 'elsewhere').map((r) => r.current), [false, false, false]);
});

test('whatever the reply, rows only of valid rooms, each once, figures counted or 0', () => {
  for (const odd of [null, undefined, 'x', 42, [], {}, { rooms: null }, { rooms: 'demo' }, { rooms: {} }]) {
    assert.deepEqual(roomRows(odd, 'main'), [], JSON.stringify(odd));
  }
  const rows = roomRows({
    rooms: [
      null, 'demo', 7, [], { clients: 3 }, { name: 'Demo' }, { name: '../x' }, { name: '' },
      { name: 'a', clients: -1, cells: 1.5 }, { name: 'b', clients: '2', cells: Infinity }, { name: 'a', clients: 9 },
      { name: 'c', clients: 3, cells: 4, extra: { nested: true } },
    ],
  }, 'b');
  assert.deepEqual(rows.map((r) => [r.name, r.clients, r.cells, r.current]), [['a', 0, 0, false], ['b', 0, 0, true], ['c', 3, 4, false]]);
});

test('at most 100 rows', () => {
  const many = { rooms: Array.from({ length: 150 }, (_, i) => ({ name: `r${i}`, clients: 1, cells: 0 })) };
  const rows = roomRows(many, 'r120');
  assert.equal(rows.length, MAX_ROWS);
  assert.equal(rows.at(-1).name, 'r99');
  assert.ok(rows.every((r) => !r.current));
  assert.equal(roomSummary(rows), '100+ rooms \u00b7 100 people');
});

test('figures in words, and the line that sums the rooms up', () => {
  assert.deepEqual([0, 1, 2, 1234].map(people), ['no one', '1 person', '2 people', '1,234 people']);
  assert.deepEqual([0, 1, 2, 100000].map(cells), ['0 cells', '1 cell', '2 cells', '100,000 cells']);
  assert.equal(roomSummary(roomRows(listing, 'main')), '3 rooms \u00b7 3 people');
  assert.equal(roomSummary(roomRows({ rooms: [{ name: 'main', clients: 1, cells: 0 }] }, 'main')), '1 room \u00b7 1 person');
  assert.equal(roomSummary([]), 'No rooms open');
});
