// node --test Tests/web/  — the page's state (Public/state.js) fed by the server's messages
// (Public/apply.js), and the change events every mutation emits
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHANGES, createState, mayChange, ownerLookup, selectId, selectIndex, selectedIndex, setConnection, setDrag, setHover, setMoment, setScheme,
} from '../../Public/state.js';
import { applyEvent, applyFrame, applyHello, applyMessage, applyStats } from '../../Public/apply.js';
import { SPECS } from './paramspecs.mjs';

// every parameter at its default, as a fresh server's hello has them
const PARAMS = Object.fromEntries(SPECS.map((s) => [s.name, s.default]));
const hello = (extra = {}) => ({
  type: 'hello', protocol: 1, client: 'c7', clients: 2, params: PARAMS,
  limits: { maxCells: 100000, maxAddPerMessage: 1000, maxMessageBytes: 65536 }, tick: 10, settled: true, pinned: [], events: [], ...extra,
});
const ev = (seq, kind, extra = {}) => ({ type: 'event', seq, kind, tick: seq, at: 1763700000000 + seq, ...extra });
const frame = (v, ids, extra = {}) => ({ type: 'frame', tick: 1, v, ids, xy: new Array(2 * ids.length).fill(0), owners: [], ...extra });

// Every change event of `s`, as [type, payload] (payload left out when there is none).
function record(s) {
  const seen = [];
  for (const type of CHANGES) s.on(type, (payload) => seen.push(payload === undefined ? [type] : [type, payload]));
  return {
    /** The events since the last call, then forgets them. */
    take() {
      return seen.splice(0);
    },
    /** Just the types since the last call. */
    types() {
      return seen.splice(0).map(([type]) => type);
    },
  };
}

test('hello: connected, with client, params, limits, clients, settled, pins; one event of each', () => {
  const s = createState();
  const r = record(s);
  assert.equal(s.connection, 'connecting');
  applyHello(s, hello({ settled: false }));
  assert.equal(s.connection, 'connected');
  assert.equal(s.client, 'c7');
  assert.equal(s.clients, 2);
  assert.deepEqual(s.params, PARAMS);
  assert.equal(s.limits.maxAddPerMessage, 1000);
  assert.equal(s.settled, false);
  assert.deepEqual(r.types(), ['connection', 'limits', 'params', 'pins', 'clients', 'settled']);
  // the same again (a reconnect to the same server, nothing new): no clients/settled/history
  applyHello(s, hello({ settled: false }));
  assert.deepEqual(r.types(), ['connection', 'limits', 'params', 'pins']);
});

test('the room: from the page address until hello.room names it; a room event only when it differs', () => {
  assert.equal(createState().room, 'main');
  const s = createState({ room: 'demo' });
  assert.equal(s.room, 'demo');
  const r = record(s);
  applyHello(s, hello({ room: 'demo' })); // the room the address named: no room event
  assert.equal(s.room, 'demo');
  assert.deepEqual(r.types(), ['connection', 'limits', 'params', 'pins', 'clients']);
  applyHello(s, hello({ room: 'other' })); // the server says otherwise: it knows
  assert.equal(s.room, 'other');
  assert.deepEqual(r.types(), ['connection', 'room', 'limits', 'params', 'pins']);
  // a server without rooms (no hello.room), or a name that is not a room's: the room stays
  for (const room of [undefined, null, '', 'Demo', '../x', 7, ['main']]) applyHello(s, hello({ room }));
  assert.equal(s.room, 'other');
  assert.ok(!r.types().includes('room'));
  // stats of the connection's room carry server-wide figures too; the room's clients count
  applyStats(s, { type: 'stats', room: 'other', cells: 3, clients: 4, totalClients: 9, rooms: 3, totalCells: 30 });
  assert.equal(s.clients, 4);
  assert.equal(s.stats.totalClients, 9);
  assert.equal(s.room, 'other');
});

test('hello.paramSpecs: the specs once, before params; again only when they differ', () => {
  const s = createState();
  const r = record(s);
  assert.deepEqual(s.paramSpecs, []); // no controls before the first hello
  applyHello(s, hello({ paramSpecs: SPECS }));
  assert.deepEqual(s.paramSpecs.map((p) => p.name), Object.keys(PARAMS));
  assert.deepEqual(r.types(), ['connection', 'limits', 'specs', 'params', 'pins', 'clients']);
  const known = s.paramSpecs;
  // a reconnect to the same server: same specs (a fresh copy), no rebuild
  applyHello(s, hello({ paramSpecs: structuredClone(SPECS) }));
  assert.deepEqual(r.types(), ['connection', 'limits', 'params', 'pins']);
  assert.equal(s.paramSpecs, known);
  // a newer server with one more parameter, and a kind this page does not know
  const gravity = { name: 'gravity', kind: 'number', label: 'Gravity', description: 'Pull down.', default: 0, min: -1, max: 1, step: 0.1, control: 'slider' };
  applyHello(s, hello({ paramSpecs: [...SPECS, gravity, { name: 'tint', kind: 'colour' }] }));
  assert.deepEqual(r.types(), ['connection', 'limits', 'specs', 'params', 'pins']);
  assert.deepEqual(s.paramSpecs.map((p) => p.name), [...Object.keys(PARAMS), 'gravity']);
  // malformed specs are no specs
  applyHello(s, hello({ paramSpecs: 'all' }));
  assert.deepEqual(s.paramSpecs, []);
});

test('frames: ids start a version, frames without ids reuse it, unknown versions are ignored', () => {
  const s = createState();
  applyHello(s, hello());
  const r = record(s);
  // a frame without ids before any version is known is ignored
  applyFrame(s, { type: 'frame', tick: 1, v: 3, xy: [1, 2] });
  assert.deepEqual(r.take(), []);
  applyFrame(s, { type: 'frame', tick: 11, v: 17, ids: [1, 2, 5], owners: [], xy: [10.5, -3, 0, 0, 22.1, 7.4] });
  assert.deepEqual(r.take(), [['membership', { shift: 0 }], ['selection'], ['positions']]);
  assert.deepEqual(s.ids, [1, 2, 5]);
  assert.deepEqual([...s.xy], [10.5, -3, 0, 0, 22.1, 7.4]);
  assert.equal(s.index.get(5), 2);
  applyFrame(s, { type: 'frame', tick: 12, v: 17, xy: [1, 1, 2, 2, 3, 3] });
  assert.deepEqual(r.take(), [['positions']]);
  assert.deepEqual([...s.xy], [1, 1, 2, 2, 3, 3]);
  // without ids and another v: ignored, nothing changes
  applyFrame(s, { type: 'frame', tick: 13, v: 18, xy: [9, 9, 9, 9] });
  assert.deepEqual([...s.xy], [1, 1, 2, 2, 3, 3]);
  assert.deepEqual(r.take(), []);
  // a new version with the same ids is not a membership change
  applyFrame(s, { type: 'frame', tick: 14, v: 19, ids: [1, 2, 5], owners: [], xy: [0, 0, 0, 0, 0, 0] });
  assert.deepEqual(r.types(), ['positions']);
  // empty and malformed frames never throw, and change nothing
  for (const f of [
    { type: 'frame' }, { type: 'frame', v: 19 }, { type: 'frame', v: 19, xy: 'x' }, { type: 'frame', v: 19, xy: [1] },
    { type: 'frame', v: 20, ids: [1], xy: [1, 2, 3] }, { type: 'frame', v: 20, ids: 'x', xy: [] },
  ]) assert.doesNotThrow(() => applyFrame(s, f));
  assert.deepEqual(s.ids, [1, 2, 5]);
  assert.deepEqual(r.take(), []);
  // an empty membership is fine
  applyFrame(s, frame(21, []));
  assert.deepEqual(r.types(), ['membership', 'selection', 'positions']);
  assert.equal(s.ids.length, 0);
  assert.equal(s.selectedId, null);
});

test('after hello, frames wait for ids again', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, frame(1, [1]));
  applyHello(s, hello());
  const r = record(s);
  applyFrame(s, { type: 'frame', tick: 2, v: 1, xy: [5, 5] });
  assert.deepEqual(r.take(), []);
  applyFrame(s, { type: 'frame', tick: 2, v: 1, ids: [1], owners: [], xy: [5, 5] });
  assert.deepEqual(r.take(), [['positions']]);
});

test('selection: first cell by default, follows its id, nearest remaining when removed', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, frame(1, [10, 11, 12, 13, 14]));
  assert.equal(s.selectedId, 10);
  const r = record(s);
  selectIndex(s, 3);
  assert.equal(s.selectedId, 13);
  assert.deepEqual(r.take(), [['selection']]);
  selectIndex(s, 3);
  assert.deepEqual(r.take(), [], 'the same cell again: no event');
  // cells before it removed: the selection follows the id to its new index; the strip's
  // wave moves along with it (shift)
  applyFrame(s, frame(2, [12, 13, 14, 15]));
  assert.equal(s.selectedId, 13);
  assert.equal(selectedIndex(s), 1);
  assert.deepEqual(r.take(), [['membership', { shift: -2 }], ['positions']]);
  // the selected cell removed: its later neighbour takes its place (no shift: another cell)
  applyFrame(s, frame(3, [12, 14, 15]));
  assert.equal(s.selectedId, 14);
  assert.deepEqual(r.take(), [['membership', { shift: 0 }], ['selection'], ['positions']]);
  // the newest cells removed, selected among them: the nearest remaining one
  selectIndex(s, 2);
  applyFrame(s, frame(4, [12]));
  assert.equal(s.selectedId, 12);
  // indexes clamp
  applyFrame(s, frame(5, [12, 20, 21]));
  selectIndex(s, 99);
  assert.equal(s.selectedId, 21);
  selectIndex(s, -4);
  assert.equal(s.selectedId, 12);
  selectId(s, 20);
  assert.equal(s.selectedId, 20);
  r.take();
  selectId(s, 99); // not a cell
  assert.deepEqual(r.take(), []);
  applyFrame(s, frame(6, []));
  assert.equal(selectedIndex(s), -1);
  r.take();
  selectIndex(s, 0);
  assert.deepEqual(r.take(), []);
});

test('listeners hear a change once it is whole', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, frame(1, [1, 2, 3]));
  selectIndex(s, 1);
  const heard = [];
  s.on('membership', () => heard.push(['membership', s.selectedId, s.ids.length, s.xy.length]));
  s.on('selection', () => heard.push(['selection', s.selectedId, s.ids.length]));
  applyFrame(s, frame(2, [1, 3, 4, 5]));
  assert.deepEqual(heard, [['membership', 3, 4, 8], ['selection', 3, 4]]);
  assert.throws(() => s.on('membrane', () => {}), /unknown change event/);
});

test('events: params, settled/woke, clients, pins; shown once by seq; one event each', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, frame(1, [1, 2, 3]));
  const r = record(s);
  const p = ev(1, 'params', { by: 'c2', params: { ...PARAMS, charge: 20 }, changed: ['charge'] });
  applyEvent(s, p);
  assert.equal(s.params.charge, 20);
  assert.deepEqual(r.take(), [['params'], ['history', { events: [p], restarted: false }]]);
  applyEvent(s, ev(1, 'params', { params: { charge: 30 } }));
  assert.equal(s.params.charge, 20);
  assert.deepEqual(r.take(), [], 'an event already shown changes nothing');
  applyEvent(s, ev(2, 'woke'));
  assert.equal(s.settled, false);
  assert.deepEqual(r.types(), ['settled', 'history']);
  applyEvent(s, ev(3, 'settled'));
  assert.equal(s.settled, true);
  assert.deepEqual(r.types(), ['settled', 'history']);
  applyEvent(s, ev(4, 'joined', { client: 'c9', clients: 3 }));
  assert.equal(s.clients, 3);
  assert.deepEqual(r.types(), ['clients', 'history']);
  applyEvent(s, ev(5, 'left', { client: 'c9', clients: 2 }));
  assert.equal(s.clients, 2);
  assert.deepEqual(r.types(), ['clients', 'history']);
  applyEvent(s, ev(6, 'pinned', { by: 'c1', id: 2, x: 1, y: 2 }));
  assert.ok(s.pinned.has(2));
  assert.deepEqual(r.types(), ['pins', 'history']);
  applyEvent(s, ev(7, 'pinned', { by: 'c1', id: 2, x: 5, y: 2 })); // dragged on: still pinned
  assert.deepEqual(r.types(), ['history']);
  applyEvent(s, ev(8, 'unpinned', { by: 'c1', id: 2 }));
  assert.ok(!s.pinned.has(2));
  assert.deepEqual(r.types(), ['pins', 'history']);
  applyEvent(s, ev(9, 'pinned', { id: 3, x: 0, y: 0 }));
  applyEvent(s, ev(10, 'removed', { ids: [3] }));
  assert.ok(!s.pinned.has(3));
  assert.deepEqual(r.types(), ['pins', 'history', 'pins', 'history']);
  applyEvent(s, ev(11, 'pinned', { id: 1, x: 0, y: 0 }));
  applyEvent(s, ev(12, 'cleared', { ids: [1, 2] }));
  assert.equal(s.pinned.size, 0);
  r.take();
  // a failover: the room's pins are those of the state another server went on from
  applyEvent(s, ev(13, 'failover', { node: 'b', previous: 'a', pinned: [4, 'x', 5] }));
  assert.deepEqual([...s.pinned].sort(), [4, 5]);
  assert.deepEqual(r.types(), ['pins', 'history']);
  applyEvent(s, ev(14, 'failover', { node: 'c', previous: 'b', pinned: [5, 4] }));
  assert.deepEqual(r.types(), ['history']);
  // and its parameters, when it says them (a change just before may not have reached it)
  applyEvent(s, ev(15, 'failover', { node: 'a', previous: 'c', pinned: [5, 4], params: { ...PARAMS, charge: 12 } }));
  assert.equal(s.params.charge, 12);
  assert.deepEqual(r.types(), ['params', 'history']);
  s.params = { ...PARAMS };
  s.pinned.clear();
  r.take();
  // what changes nothing of the state is only shown: added (the frame brings the cells),
  // settled while settled, unknown kinds and odd shapes
  applyEvent(s, ev(16, 'added', { by: 'c1', ids: [4] }));
  applyEvent(s, ev(17, 'settled'));
  applyEvent(s, ev(18, 'teleported', { whatever: [1] }));
  assert.deepEqual(r.types(), ['history', 'history', 'history']);
  assert.doesNotThrow(() => applyEvent(s, { type: 'event' }));
  assert.doesNotThrow(() => applyEvent(s, { type: 'event', seq: 19, kind: 'params', params: 'nope' }));
  assert.equal(s.lastSeq, 19);
});

test('reconnect: replayed events already shown are skipped, a restarted server starts over', () => {
  const s = createState();
  const r = record(s);
  applyHello(s, hello({ events: [ev(1, 'added', { by: 'c1', ids: [1] }), ev(2, 'settled')] }));
  assert.deepEqual(r.take().find(([type]) => type === 'history')[1].events.map((e) => e.seq), [1, 2]);
  applyEvent(s, ev(3, 'woke'));
  setConnection(s, 'reconnecting');
  r.take();
  // same server: the buffer has everything up to 4; only 4 is new
  applyHello(s, hello({ events: [ev(2, 'settled'), ev(3, 'woke'), ev(4, 'joined', { client: 'c8', clients: 2 })] }));
  const history = r.take().filter(([type]) => type === 'history');
  assert.equal(history.length, 1);
  assert.equal(history[0][1].restarted, false);
  assert.deepEqual(history[0][1].events.map((e) => e.seq), [4]);
  // replayed history does not override hello's own settled (stats keep it current); its
  // params events are newer than hello's params or the same (their own test below)
  applyHello(s, hello({ settled: false, events: [ev(4, 'joined'), ev(5, 'params', { params: { ...PARAMS, charge: 99 } })] }));
  assert.equal(s.params.charge, 99);
  assert.equal(s.settled, false);
  assert.deepEqual(r.take().find(([type]) => type === 'history')[1].events.map((e) => e.seq), [5]);
  // nothing new: no history
  applyHello(s, hello({ settled: false, events: [ev(5, 'params', { params: PARAMS })] }));
  assert.ok(!r.types().includes('history'));
  // a new server process: seqs start over
  applyHello(s, hello({ events: [ev(1, 'joined', { client: 'c1', clients: 1 })] }));
  const [[, restart]] = r.take().filter(([type]) => type === 'history');
  assert.equal(restart.restarted, true);
  assert.deepEqual(restart.events.map((e) => e.seq), [1]);
  assert.equal(s.lastSeq, 1);
  // a new server with nothing replayed at all is a restart too
  applyHello(s, hello({ events: [] }));
  assert.deepEqual(r.take().filter(([type]) => type === 'history'), [['history', { events: [], restarted: true }]]);
  // pins are rebuilt from the replayed history
  applyHello(s, hello({ events: [ev(1, 'joined'), ev(2, 'pinned', { id: 4, x: 0, y: 0 }), ev(3, 'pinned', { id: 5, x: 0, y: 0 }), ev(4, 'unpinned', { id: 5 })] }));
  assert.deepEqual([...s.pinned], [4]);
});

test('stats and odd hellos', () => {
  const s = createState();
  const r = record(s);
  assert.doesNotThrow(() => applyHello(s, { type: 'hello' }));
  assert.doesNotThrow(() => applyHello(s, { type: 'hello', params: null, events: 'x', clients: 'many' }));
  r.take();
  applyStats(s, { type: 'stats', cells: 1000, clients: 3, tick: 5, settled: false, tickMs: 1.8, newField: 1 });
  assert.equal(s.clients, 3);
  assert.equal(s.settled, false);
  assert.equal(s.stats.tickMs, 1.8);
  assert.deepEqual(r.types(), ['clients', 'settled', 'stats']);
  applyStats(s, { type: 'stats', cells: 1000, clients: 3, settled: false, tickMs: 1.9 });
  assert.deepEqual(r.types(), ['stats']);
});

test('hello.pinned comes first, then the replayed events in order', () => {
  const s = createState();
  applyHello(s, hello({ pinned: [5, 9, 'x', null], events: [ev(1, 'unpinned', { id: 9 }), ev(2, 'pinned', { id: 11, x: 0, y: 0 })] }));
  assert.deepEqual([...s.pinned].sort((a, b) => a - b), [5, 11]);
  assert.doesNotThrow(() => applyHello(s, hello({ pinned: 'all' })));
});

test('hello.params, then the replayed params events and failovers in order', () => {
  // The status a relay last had may be older than the events it replays (a frame interval).
  // A failover that does not say its parameters (an older server) leaves hello's.
  const s = createState();
  const p = (charge) => ({ ...PARAMS, charge });
  applyHello(s, hello({ params: p(10), events: [ev(1, 'params', { params: p(20), changed: ['charge'] }), ev(2, 'joined'),
    ev(3, 'params', { params: p(30), changed: ['charge'] })] }));
  assert.equal(s.params.charge, 30);
  // The same status after them: nothing older wins over it.
  applyHello(s, hello({ params: p(30), events: [ev(1, 'params', { params: p(20), changed: ['charge'] }),
    ev(3, 'params', { params: p(30), changed: ['charge'] })] }));
  assert.equal(s.params.charge, 30);
  // A change before a failover may not have reached the server that went on: its status says.
  applyHello(s, hello({ params: p(10), events: [ev(1, 'params', { params: p(40), changed: ['charge'] }),
    ev(2, 'failover', { node: 'b', pinned: [] })] }));
  assert.equal(s.params.charge, 10);
  applyHello(s, hello({ params: p(10), events: [ev(1, 'failover', { node: 'b', pinned: [] }),
    ev(2, 'params', { params: p(50), changed: ['charge'] }), ev(3, 'params', { params: 'odd' })] }));
  assert.equal(s.params.charge, 50);
  // A failover that says its parameters: they stand, and what came after them.
  applyHello(s, hello({ params: p(10), events: [ev(1, 'params', { params: p(40), changed: ['charge'] }),
    ev(2, 'failover', { node: 'b', pinned: [], params: p(35) })] }));
  assert.equal(s.params.charge, 35);
  applyHello(s, hello({ params: p(35), events: [ev(1, 'failover', { node: 'b', pinned: [], params: p(35) }),
    ev(2, 'params', { params: p(60), changed: ['charge'] })] }));
  assert.equal(s.params.charge, 60);
});

test('owners: runs from frames with ids, kept by frames without; an event only when they change', () => {
  const s = createState();
  applyHello(s, hello());
  assert.deepEqual(s.owners, []);
  const r = record(s);
  applyFrame(s, frame(1, [1, 2, 3], { owners: [['c1', 1, 2]] }));
  assert.deepEqual(r.types(), ['membership', 'owners', 'selection', 'positions']);
  assert.deepEqual(s.owners, [['c1', 1, 2]]);
  const own = ownerLookup(s);
  assert.equal(own(1), 'c1');
  assert.equal(own(3), null);
  const runs = s.owners;
  applyFrame(s, { type: 'frame', v: 1, xy: new Array(6).fill(1) });
  applyFrame(s, frame(2, [1, 2, 3], { owners: [['c1', 1, 2]] }));
  assert.equal(s.owners, runs);
  assert.deepEqual(r.types(), ['positions', 'positions']);
  applyFrame(s, frame(3, [1, 2, 3, 4], { owners: [['c1', 1, 2], ['c2', 4, 4]] }));
  assert.notEqual(s.owners, runs);
  assert.equal(ownerLookup(s)(4), 'c2');
  assert.deepEqual(r.types(), ['membership', 'owners', 'positions']);
  // the same cells, another owner (a run merged or restored): owners alone
  applyFrame(s, frame(4, [1, 2, 3, 4], { owners: [['c1', 1, 4]] }));
  assert.deepEqual(r.types(), ['owners', 'positions']);
  // malformed owners never throw: nobody known
  assert.doesNotThrow(() => applyFrame(s, frame(5, [1], { owners: 'x' })));
  assert.deepEqual(s.owners, []);
  // `added` events say nothing about owners: the runs do
  applyEvent(s, ev(1, 'added', { by: 'c7', ids: [1] }));
  assert.equal(ownerLookup(s)(1), null);
});

test('cells that leave take their pin and the hover with them', () => {
  const s = createState();
  applyHello(s, hello({ pinned: [2] }));
  applyFrame(s, frame(1, [1, 2, 3]));
  setHover(s, 3);
  const r = record(s);
  applyFrame(s, frame(2, [1]));
  assert.deepEqual(r.types(), ['membership', 'pins', 'positions', 'hover']);
  assert.equal(s.pinned.size, 0);
  assert.equal(s.hoveredId, null);
});

test('the ids array keeps its identity while the membership does not change', () => {
  const s = createState();
  applyHello(s, hello());
  applyFrame(s, frame(1, [1, 2]));
  const ids = s.ids;
  applyFrame(s, { type: 'frame', v: 1, xy: [1, 1, 1, 1] });
  applyFrame(s, frame(2, [1, 2]));
  assert.equal(s.ids, ids);
  applyFrame(s, frame(3, [1]));
  assert.notEqual(s.ids, ids);
  assert.deepEqual(ids, [1, 2]);
});

test("the page's own state: connection, hover, drag, scheme; an event only on a change", () => {
  const s = createState({ scheme: 'dark' });
  const r = record(s);
  setConnection(s, 'open'); // a socket is open: still connecting until hello
  assert.equal(s.connection, 'connecting');
  assert.deepEqual(r.take(), []);
  setConnection(s, 'reconnecting');
  setConnection(s, 'reconnecting');
  assert.deepEqual(r.take(), [['connection']]);
  setHover(s, 4);
  setHover(s, 4);
  setHover(s, null);
  assert.deepEqual(r.types(), ['hover', 'hover']);
  const d = { id: 4, wx: 1, wy: 2, wasPinned: false };
  setDrag(s, d);
  assert.equal(s.dragging, d);
  setDrag(s, { ...d, wx: 3 });
  setDrag(s, null);
  setDrag(s, null);
  assert.deepEqual(r.types(), ['drag', 'drag', 'drag']);
  assert.equal(s.scheme, 'dark');
  setScheme(s, 'dark');
  setScheme(s, 'light');
  assert.deepEqual(r.types(), ['theme']);
});

test('messages by type: an error is kept as rejected; others are ignored', () => {
  const s = createState();
  const r = record(s);
  applyMessage(s, hello());
  applyMessage(s, frame(1, [7]));
  applyMessage(s, { type: 'replay', events: [ev(1, 'pinned', { id: 7, x: 0, y: 0 })] });
  applyMessage(s, { type: 'whatever' });
  assert.equal(s.pinned.size, 0);
  r.take();
  applyMessage(s, { type: 'error', code: 'rate_limited', message: 'slow down', ref: 'a1' });
  assert.deepEqual(r.take(), [['rejected']]);
  assert.equal(s.rejected.code, 'rate_limited');
});

test('unsaved: from hello, the unsaved and saved events, and stats; one event each time it changes', () => {
  const s = createState();
  const r = record(s);
  applyHello(s, hello({ unsaved: true }));
  assert.equal(s.unsaved, true);
  assert.ok(r.types().includes('unsaved'));
  applyEvent(s, ev(1, 'saved'));
  assert.equal(s.unsaved, false);
  assert.deepEqual(r.types(), ['unsaved', 'history']);
  applyEvent(s, ev(2, 'unsaved'));
  assert.equal(s.unsaved, true);
  assert.deepEqual(r.types(), ['unsaved', 'history']);
  applyStats(s, { type: 'stats', cells: 1, clients: 2, settled: true });
  assert.equal(s.unsaved, false, 'stats without unsaved: saved');
  assert.ok(r.types().includes('unsaved'));
});

test('physics and unfolding: from hello and stats; one physics change each time either changes', () => {
  const s = createState();
  const r = record(s);
  applyHello(s, hello({ physics: 'graph', unfolding: true }));
  assert.equal(s.physics, 'graph');
  assert.equal(s.unfolding, true);
  assert.ok(r.types().includes('physics'));
  applyStats(s, { type: 'stats', cells: 1, clients: 1, settled: false, physics: 'graph' });
  assert.equal(s.unfolding, false, 'stats without unfolding: done');
  assert.ok(r.types().includes('physics'));
  applyStats(s, { type: 'stats', cells: 1, clients: 1, settled: false, physics: 'graph' });
  assert.ok(!r.types().includes('physics'), 'nothing changed');
  applyStats(s, { type: 'stats', cells: 1, clients: 1, settled: true });
  assert.equal(s.physics, null, 'an older server says nothing: unknown');
});

test('the picked cell and a group\'s members are derived from the selection', async () => {
  const { pickedCell, groupMembers, selectId: pick, selectGroup: group, clearFocus: clear } = await import('../../Public/state.js');
  const { applyFrame: frame } = await import('../../Public/apply.js');
  const s = createState();
  frame(s, { type: 'frame', tick: 1, v: 1, ids: [3, 5, 8], xy: [0, 0, 1, 1, 2, 2] });
  s.data.cells.set(3, { group: 'a' }).set(8, { group: 'a' }).set(5, { group: 'b' });
  assert.equal(pickedCell(s), null, 'the first cell, selected by default, is not picked');
  pick(s, 5);
  assert.equal(pickedCell(s), 5);
  assert.deepEqual(groupMembers(s), []);
  group(s, 'a');
  assert.equal(pickedCell(s), null);
  assert.deepEqual(groupMembers(s), [3, 8]);
  clear(s);
  assert.deepEqual(groupMembers(s), []);
});

test('undoable: what the server can undo of this page\u2019s, one event when it changes; a new connection has none', () => {
  const s = createState();
  const r = record(s);
  assert.equal(s.undoable, null);
  applyMessage(s, { type: 'undoable', count: 2, next: ' add 10 cells ' });
  assert.deepEqual(s.undoable, { count: 2, next: 'add 10 cells' });
  assert.deepEqual(r.types(), ['undoable']);
  applyMessage(s, { type: 'undoable', count: 2, next: 'add 10 cells' });
  assert.deepEqual(r.types(), [], 'the same again');
  applyMessage(s, { type: 'undoable', count: 0, next: 'ignored' });
  assert.deepEqual(s.undoable, { count: 0, next: null });
  applyMessage(s, { type: 'undoable', count: -1 });
  applyMessage(s, { type: 'undoable', count: 'x' });
  assert.deepEqual(s.undoable, { count: 0, next: null }, 'unusable counts are none');
  r.types();
  applyHello(s, hello());
  assert.equal(s.undoable, null);
  assert.ok(r.types().includes('undoable'));
});

test('the moment shown: one event each way; nobody changes the room from the past, a viewer never', () => {
  const s = createState();
  const r = record(s);
  assert.equal(s.moment, null);
  assert.ok(mayChange(s));
  const m = { at: 5, ids: [], xy: new Float64Array(0) };
  setMoment(s, m);
  setMoment(s, m);
  assert.equal(s.moment, m);
  assert.ok(!mayChange(s));
  setMoment(s, null);
  assert.deepEqual(r.types(), ['moment', 'moment']);
  s.role = 'viewer';
  assert.ok(!mayChange(s));
});

test('a restore brings its pins when it says them; the events of an undo are events as any', () => {
  const s = createState();
  applyHello(s, hello({ pinned: [1] }));
  applyFrame(s, frame(1, [1, 2, 3]));
  const r = record(s);
  applyEvent(s, ev(1, 'restored', { by: 'c1', moment: 5, ids: [1, 2, 3] }));
  assert.deepEqual([...s.pinned], [1], 'no pins said: the page keeps what it has');
  assert.deepEqual(r.types(), ['history']);
  applyEvent(s, ev(2, 'restored', { by: 'c1', moment: 5, ids: [1, 2, 3], pinned: [2, 3] }));
  assert.deepEqual([...s.pinned].sort(), [2, 3]);
  assert.deepEqual(r.types(), ['pins', 'history']);
  applyEvent(s, ev(3, 'unpinned', { by: 'c1', id: 2, undo: 2 }));
  assert.deepEqual([...s.pinned], [3]);
});
