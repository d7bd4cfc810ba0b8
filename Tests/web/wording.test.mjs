// node --test Tests/web/  — events in words (Public/wording.js) and how parameter values read (Public/params.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockTime, describeError, describeEvent, describeMoment, eventKey } from '../../Public/wording.js';
import { formatNumber, formatParam } from '../../Public/params.js';

const P = { stiffness: 0.02, charge: 20, cellSize: 20, threshold: 0.3, tickRate: 20, theta: 0.9, collide: true, paused: false, model: 'graph', edgeLength: 30 };

test('events read as short sentences', () => {
  const cases = [
    [{ kind: 'added', by: 'c3', ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }, 'c3 added 10 cells'],
    [{ kind: 'added', by: 'c3', ids: [1] }, 'c3 added 1 cell'],
    [{ kind: 'removed', by: 'c3', ids: [4, 5] }, 'c3 removed 2 cells'],
    [{ kind: 'cleared', by: 'c3', ids: new Array(40).fill(1) }, 'c3 cleared 40 cells'],
    [{ kind: 'params', by: 'c2', params: P, changed: ['charge'] }, 'c2 set charge to 20'],
    [{ kind: 'params', by: 'c2', params: P, changed: ['stiffness', 'theta'] }, 'c2 set stiffness to 0.02, set theta to 0.9'],
    [{ kind: 'params', by: 'c2', params: P, changed: ['collide'] }, 'c2 set collide to on'],
    [{ kind: 'params', by: 'c2', params: { ...P, paused: true }, changed: ['paused'] }, 'c2 paused the layout'],
    [{ kind: 'params', by: 'c2', params: P, changed: ['paused'] }, 'c2 resumed the layout'],
    [{ kind: 'params', by: 'c2', params: P, changed: ['model'] }, 'c2 set model to graph'],
    [{ kind: 'params', by: 'c2', params: P, changed: ['model', 'edgeLength'] }, 'c2 set model to graph, set edgeLength to 30'],
    [{ kind: 'params', by: 'c2', params: { charge: 5 } }, 'c2 set the parameters'], // no `changed`: not this server
    [{ kind: 'params', by: 'c2', params: P, changed: [] }, 'c2 set the parameters'],
    [{ kind: 'pinned', by: 'c1', id: 7, x: 1, y: 2 }, 'c1 pinned cell 7'],
    [{ kind: 'unpinned', by: 'c1', id: 7 }, 'c1 unpinned cell 7'],
    [{ kind: 'pinned', by: 'c1', id: 'nope' }, 'c1 pinned a cell'],
    [{ kind: 'unpinned' }, 'server unpinned a cell'],
    [{ kind: 'settled' }, 'layout settled'],
    [{ kind: 'woke' }, 'layout woke'],
    [{ kind: 'unsaved' }, 'the server cannot save this room (changes since are not saved; it keeps trying)'],
    [{ kind: 'saved' }, 'the room is saved again'],
    [{ kind: 'failover', node: 'b', previous: 'a', pinned: [] }, 'room moved to server b (a stopped)'],
    [{ kind: 'failover', node: 'c' }, 'room moved to server c'],
    [{ kind: 'joined', client: 'c4', clients: 3 }, 'c4 joined (3 clients)'],
    [{ kind: 'left', client: 'c4', clients: 2 }, 'c4 left (2 clients)'],
    [{ kind: 'joined', client: 'c4', clients: 1 }, 'c4 joined (1 client)'],
    [{ kind: 'added', ids: [1, 2] }, 'server added 2 cells'],
    [{ kind: 'added', by: 'c1' }, 'c1 added 0 cells'],
    [{ kind: 'exploded', by: 'c1' }, 'c1: exploded'],
    [{ kind: 'exploded' }, 'exploded'],
  ];
  for (const [ev, text] of cases) assert.equal(describeEvent({ type: 'event', seq: 1, tick: 1, ...ev }), text);
  for (const odd of [null, undefined, 3, 'x', {}, { kind: 4 }]) assert.equal(describeEvent(odd), null);
});

test('errors and times', () => {
  assert.equal(describeError({ type: 'error', code: 'bad_request', message: 'charge must be a finite number in [0, 1000]' }),
    'bad_request: charge must be a finite number in [0, 1000]');
  assert.equal(describeError({ type: 'error' }), 'request rejected');
  assert.equal(describeError({ type: 'error', message: 'slow down' }), 'slow down');
  assert.equal(clockTime(new Date(2024, 0, 1, 9, 5, 3)), '09:05:03');
});

test('parameter values read without exponents', () => {
  assert.equal(formatNumber(20), '20');
  assert.equal(formatNumber(0.02), '0.02');
  assert.equal(formatNumber(0.1 + 0.2), '0.3');
  assert.equal(formatNumber(1e6), '1000000');
  assert.equal(formatNumber(1e-7), '0.0000001');
  assert.equal(formatNumber(2 / 3), '0.666667');
  assert.equal(formatParam('collide', false), 'off');
  assert.equal(formatParam('charge', 12.5), '12.5');
  assert.equal(formatParam('model', 'cells'), 'cells');
});

test('log keys merge a slider run and a drag, not toggles', () => {
  const p = (changed, params) => ({ kind: 'params', by: 'c1', params: { ...P, ...params }, changed });
  assert.equal(eventKey(p(['charge'], { charge: 20 })), eventKey(p(['charge'], { charge: 30 })));
  assert.notEqual(eventKey(p(['charge'], {})), eventKey(p(['theta'], {})));
  assert.notEqual(eventKey(p(['paused'], { paused: true })), eventKey(p(['paused'], { paused: false })));
  // a menu's choices stay one line each, the same choice again merges
  assert.notEqual(eventKey(p(['model'], { model: 'graph' })), eventKey(p(['model'], { model: 'cells' })));
  assert.equal(eventKey(p(['model'], { model: 'graph' })), eventKey(p(['model'], { model: 'graph' })));
  assert.equal(eventKey({ kind: 'pinned', by: 'c1', id: 4, x: 1, y: 1 }), eventKey({ kind: 'pinned', by: 'c1', id: 4, x: 9, y: 9 }));
  assert.notEqual(eventKey({ kind: 'pinned', by: 'c1', id: 4 }), eventKey({ kind: 'pinned', by: 'c2', id: 4 }));
  assert.equal(eventKey({ kind: 'settled' }), 'layout settled');
  assert.equal(eventKey(null), null);
});

test('the past: history events by their n, undos, restores, the moment shown', () => {
  assert.equal(describeEvent({ kind: 'removed', by: 'c3', n: 4 }), 'c3 removed 4 cells');
  assert.equal(describeEvent({ kind: 'params', by: 'c2', changed: ['charge', 'theta'] }), 'c2 changed charge, changed theta');
  assert.equal(describeEvent({ kind: 'linked', by: 'c3', n: 1 }), 'c3 linked 1 pair');
  assert.equal(describeEvent({ kind: 'added', by: 'c3', n: -2 }), 'c3 added 0 cells');
  assert.equal(describeEvent({ kind: 'removed', by: 'c3', ids: [1, 2], undo: 57 }), 'c3 undid: removed 2 cells');
  assert.equal(describeEvent({ kind: 'params', by: 'c2', params: P, changed: ['charge'], undo: 9 }), 'c2 undid: set charge to 20');
  assert.equal(describeEvent({ kind: 'cleared', n: 2, undo: 1 }), 'server undid: cleared 2 cells');
  assert.equal(describeEvent({ kind: 'removed', by: 'c3', ids: [], undo: 'x' }), 'c3 removed 0 cells', 'not a seq: not an undo');
  const at = new Date(2026, 10, 28, 14, 3, 12).getTime();
  assert.equal(describeEvent({ kind: 'restored', by: 'c1', moment: at, n: 5 }), 'c1 restored the room as it was at 14:03:12');
  assert.equal(describeEvent({ kind: 'restored', by: 'c1' }), 'c1 restored the room');
  const change = { kind: 'cleared', by: 'c3', n: 120, at: at - 2000 };
  assert.equal(describeMoment(at, change), 'Viewing 14:03:12 \u2014 c3 cleared 120 cells at 14:03:10');
  assert.equal(describeMoment(at + 300, { ...change, at: at + 100 }), 'Viewing 14:03:12 \u2014 c3 cleared 120 cells', 'the same second');
  assert.equal(describeMoment(at, null), 'Viewing 14:03:12');
  assert.equal(describeMoment(at, null, { clamped: true }), 'Viewing 14:03:12, the oldest moment kept');
});
