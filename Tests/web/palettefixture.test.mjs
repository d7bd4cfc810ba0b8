// node --test Tests/web/  — the page's colours as cases in Tests/fixtures/palette.json, which
// the server's SVG export asserts too (LayoutCoreTests/PaletteFixtureTests): clients' and
// groups' colours in both schemes, the order of groups, and the colour of each cell of a room
// (own colour, else group, else owner). The page is the reference; after a deliberate change:
//     FORCELAYOUT_WRITE_FIXTURES=1 node --test Tests/web/palettefixture.test.mjs
// then make the Swift side follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { paintCells } from '../../Public/cellpaint.js';
import { clientRGB, cssHex, groupRGB } from '../../Public/palette.js';

const FILE = new URL('../fixtures/palette.json', import.meta.url);
const SCHEMES = ['light', 'dark'];
const CLIENTS = ['c0', 'c1', 'c2', 'c3', 'c7', 'c12', 'c100', 'c999999999999999', 'c1234567890123456', 'c', 'c1x', 'C1',
  'alice', 'bob', 'server', '\u00df', '\u65e5\u672c', '\ud83d\ude00', null];
const GROUP_NAMES = ['b', 'B', 'a', 'A', '\u00e9', 'e', 'Zebra', 'z', 'a b', 'a-b', 'ab', 'a_b', '10', '9', '-1', '2.5',
  'x1', 'x10', 'x2', '\u00c4rger', 'apple', '\u00e9lan', 'eclair', ''];
// a room: [id, owner, color, group]
const CELLS = [[1, 'c1', null, null], [2, 'c1', null, 'beta'], [3, 'c2', '#ff8800', 'beta'], [4, null, null, null],
  [5, 'c2', null, 'alpha'], [6, 'c3', null, '10'], [7, 'c3', null, '9'], [8, null, '#00AAff', null],
  [9, 'alice', null, null], [10, 'c2', '#123456', 'gamma' /* its own colour: gamma is no group of the legend */]];

function cases() {
  const rgb = (f) => Object.fromEntries(SCHEMES.map((s) => [s, cssHex(f(s))]));
  const ids = CELLS.map((c) => c[0]);
  const owner = new Map(CELLS.map((c) => [c[0], c[1]]));
  const data = new Map(CELLS.filter((c) => c[2] || c[3] !== null).map((c) => [c[0], {
    ...(c[2] ? { color: c[2] } : {}), ...(c[3] !== null ? { group: c[3] } : {}),
  }]));
  const painted = paintCells(ids, (id) => owner.get(id) ?? null, data, 'light');
  // the groups in the page's order: one cell each, each group's index read from its colour
  const groupsOnly = paintCells(GROUP_NAMES.map((_, i) => i + 1), () => null,
    new Map(GROUP_NAMES.map((g, i) => [i + 1, { group: g }])), 'light');
  const indexOf = (css) => Array.from({ length: GROUP_NAMES.length }, (_, i) => cssHex(groupRGB(i, 'light'))).indexOf(css);
  const sorted = [];
  GROUP_NAMES.forEach((g, i) => { sorted[indexOf(groupsOnly.palette.css[groupsOnly.slots[i]])] = g; });
  return {
    clients: CLIENTS.map((id) => ({ id, ...rgb((s) => clientRGB(id, s)) })),
    groups: Array.from({ length: 24 }, (_, index) => ({ index, ...rgb((s) => groupRGB(index, s)) })),
    groupOrder: { names: GROUP_NAMES, sorted },
    room: CELLS.map(([id, owner, color, group], i) => ({
      id, owner, color, group, light: painted.palette.css[painted.slots[i]],
    })),
  };
}

test('Tests/fixtures/palette.json holds what the page paints', () => {
  const now = cases();
  if (process.env.FORCELAYOUT_WRITE_FIXTURES === '1') writeFileSync(FILE, `${JSON.stringify(now, null, 1)}\n`);
  assert.deepEqual(JSON.parse(readFileSync(FILE, 'utf8')), now);
});

test('the fixture covers what the drawing needs: every group in order, own colours first, owners and the neutral grey', () => {
  const fixture = JSON.parse(readFileSync(FILE, 'utf8'));
  assert.deepEqual([...fixture.groupOrder.sorted].sort(), [...GROUP_NAMES].sort(), 'every group has an index of its own');
  const byId = new Map(fixture.room.map((c) => [c.id, c.light]));
  assert.equal(byId.get(3), '#ff8800');
  assert.equal(byId.get(8), '#00aaff');
  assert.equal(byId.get(4), cssHex(clientRGB(null, 'light')));
  assert.equal(byId.get(1), cssHex(clientRGB('c1', 'light')));
  // groups of cells without a colour of their own: 9, 10, alpha, beta (gamma's cell has a colour)
  assert.equal(byId.get(7), cssHex(groupRGB(0, 'light')));
  assert.equal(byId.get(6), cssHex(groupRGB(1, 'light')));
  assert.equal(byId.get(5), cssHex(groupRGB(2, 'light')));
  assert.equal(byId.get(2), cssHex(groupRGB(3, 'light')));
});
