// node --test Tests/web/  — going back in the room's past (Public/rewind.js) against a tiny
// fake of the server's side of the draft contract (history, moment, restore): the state's
// `moment` while the past is shown, live again at once, a restore of this page's ending it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createState } from '../../Public/state.js';
import { applyHello, applyMessage } from '../../Public/apply.js';
import { createRewind } from '../../Public/rewind.js';

const T0 = 1763700000000;

// A room's past as a server keeps it: events at T0 + seq s, the cells after each
function fakeServer() {
  const sent = [];
  const events = [1, 2, 3, 4, 5].map((seq) => ({ seq, kind: seq === 3 ? 'settled' : 'added', by: 'c1', tick: seq, at: T0 + 1000 * seq, n: 1 }));
  return {
    sent,
    send(msg) {
      sent.push(msg);
      return true;
    },
    last: (type) => sent.filter((m) => m.type === type).at(-1),
    history(req) {
      const older = events.filter((e) => req.before === undefined || e.seq < req.before);
      const batch = older.slice(-2);
      return { type: 'history', from: T0, to: T0 + 10000, events: batch, more: batch[0].seq > 1 };
    },
    moment(req) {
      const n = Math.max(0, Math.min(5, Math.floor((req.at - T0) / 1000)));
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      const msg = { type: 'moment', ref: req.ref, at: req.at, seq: n, tick: n, ids, x: ids, y: ids, params: {}, pinned: [], dataSeq: n };
      if (req.have !== n) msg.cells = { id: ids, label: ids.map((i) => `cell ${i}`) };
      return msg;
    },
  };
}

function setup() {
  const server = fakeServer();
  const state = createState();
  const rewind = createRewind({ state, send: (m) => server.send(m), now: () => T0 + 10000 });
  const hear = (msg) => rewind.take(msg) || applyMessage(state, msg);
  applyHello(state, { type: 'hello', client: 'c7', params: {}, events: [] });
  return { server, state, rewind, hear };
}

test('open: the past is fetched batch by batch, the newest first', () => {
  const { server, rewind, hear } = setup();
  assert.equal(server.sent.length, 0, 'nothing before the timeline opens');
  rewind.open(true);
  assert.deepEqual(server.last('history'), { type: 'history', ref: 'history' });
  hear(server.history(server.last('history')));
  assert.equal(server.last('history').before, 4, 'then further back');
  hear(server.history(server.last('history')));
  hear(server.history(server.last('history')));
  assert.deepEqual(rewind.timeline.events.map((e) => e.seq), [1, 2, 3, 4, 5]);
  assert.equal(rewind.timeline.more, false);
  assert.equal(server.sent.filter((m) => m.type === 'history').length, 3, 'no more asked');
  assert.deepEqual(rewind.range(), { start: T0, end: T0 + 10000 });
});

test('open: the room as it is now is asked once, held and not shown (a drag back then brings only changes)', () => {
  const { server, state, rewind, hear } = setup();
  rewind.open(true);
  hear(server.history(server.last('history')));
  const moments = server.sent.filter((m) => m.type === 'moment');
  assert.equal(moments.length, 1, 'asked with the first batch of the past');
  assert.equal(moments[0].have, undefined);
  hear(server.history(server.last('history')));
  assert.equal(server.sent.filter((m) => m.type === 'moment').length, 1, 'once');
  hear(server.moment(moments[0]));
  assert.equal(state.moment, null, 'not shown: the page stays live');
  assert.equal(rewind.at, null);
  rewind.goTo(T0 + 2500);
  assert.equal(server.last('moment').have, 5, 'the first moment of the drag says the data held: now\u2019s');
});

test('scrubbing shows the moment to this page; live is the live state at once', () => {
  const { server, state, rewind, hear } = setup();
  let changes = 0;
  rewind.on('change', () => changes++);
  rewind.open(true);
  rewind.goTo(T0 + 2500);
  rewind.goTo(T0 + 3500);
  assert.equal(rewind.at, T0 + 3500);
  assert.ok(changes >= 3);
  const moments = server.sent.filter((m) => m.type === 'moment');
  assert.equal(moments.length, 1, 'one under way');
  hear(server.moment(moments[0]));
  assert.equal(state.moment.ids.length, 2);
  assert.equal(state.moment.data.cells.get(2).label, 'cell 2');
  assert.equal(server.last('moment').at, T0 + 3500);
  assert.equal(server.last('moment').have, 2);
  hear(server.moment(server.last('moment')));
  assert.equal(state.moment.ids.length, 3);
  rewind.live();
  assert.equal(state.moment, null);
  assert.equal(rewind.at, null);
  // an answer that comes after going live is not shown
  rewind.goTo(T0 + 1500);
  rewind.live();
  hear(server.moment(server.last('moment')));
  assert.equal(state.moment, null);
  // at or past now: live
  rewind.goTo(T0 + 2000);
  rewind.goTo(T0 + 10000);
  assert.equal(rewind.at, null);
  rewind.goTo(T0 + 2000);
  rewind.goTo(Infinity); // End, the track's right end
  assert.equal(rewind.at, null);
  rewind.goTo(Number.NaN);
  assert.equal(rewind.at, null);
  // before the oldest moment the server keeps: the oldest
  rewind.goTo(T0 - 5000);
  assert.equal(rewind.at, T0 - 5000, 'the server has not said which that is: it clamps');
  hear(server.history(server.last('history')));
  rewind.goTo(T0 - 5000);
  assert.equal(rewind.at, T0);
  rewind.open(false);
  assert.equal(rewind.at, null, 'closing goes live');
});

test('restore sends the moment shown; this page\u2019s own restored event brings it live, another\u2019s not', () => {
  const { server, state, rewind, hear } = setup();
  rewind.open(true);
  assert.equal(rewind.restore(), false, 'nothing shown: nothing to restore');
  rewind.goTo(T0 + 2000);
  hear(server.moment(server.last('moment')));
  assert.ok(rewind.restore());
  assert.deepEqual(server.last('restore'), { type: 'restore', at: T0 + 2000 });
  hear({ type: 'event', seq: 6, kind: 'restored', by: 'c2', tick: 6, at: T0 + 9000, moment: T0 + 2000 });
  assert.notEqual(state.moment, null, 'someone else\u2019s restore: still looking');
  assert.equal(rewind.timeline.events.at(-1).kind, 'restored', 'a live event on the timeline');
  hear({ type: 'event', seq: 7, kind: 'restored', by: 'c7', tick: 7, at: T0 + 9500, moment: T0 + 2000 });
  assert.equal(state.moment, null);
});

test('a server without history says so on the timeline, not as an error; a refused moment is an error', () => {
  const { state, rewind, hear } = setup();
  rewind.open(true);
  assert.equal(hear({ type: 'error', code: 'unknown_type', message: 'unknown type "history"', ref: 'history' }), true);
  assert.equal(rewind.unavailable, 'this server keeps no history (an older version)');
  assert.equal(state.rejected, null);
  rewind.goTo(T0 + 2000);
  assert.equal(rewind.at, null, 'nothing to scrub');
});

test('a refused history request is shown and asked again; a refused moment is an error, and live', () => {
  const { server, state, rewind, hear } = setup();
  rewind.open(true);
  hear({ type: 'error', code: 'rate_limited', message: 'too fast', ref: 'history' });
  assert.equal(state.rejected.code, 'rate_limited', 'shown as every error is');
  assert.equal(rewind.unavailable, null);
  rewind.open(false);
  rewind.open(true);
  assert.equal(server.sent.filter((m) => m.type === 'history').length, 2);
  rewind.goTo(T0 + 2000);
  hear({ type: 'error', code: 'bad_request', message: 'at must be a number', ref: 'moment-1' });
  assert.equal(state.rejected.message, 'at must be a number');
  assert.equal(rewind.at, null, 'no moment to show: live');
});

test('a reconnect asks again; the events the state hears go on the timeline', () => {
  const { server, state, rewind, hear } = setup();
  rewind.open(true);
  hear({ type: 'event', seq: 9, kind: 'added', by: 'c7', tick: 9, at: T0 + 9000, ids: [1, 2] });
  assert.deepEqual(rewind.timeline.events.map((e) => [e.seq, e.n]), [[9, 2]]);
  const before = server.sent.length;
  applyHello(state, { type: 'hello', client: 'c8', params: {}, events: [{ seq: 9, kind: 'added', at: T0 + 9000 }] });
  assert.equal(server.sent.length, before + 1);
  assert.deepEqual(server.last('history'), { type: 'history', ref: 'history' });
  assert.equal(rewind.timeline.events.length, 1, 'the same server: the same past');
  // a new server process (its seqs start over): what was known goes, asked once
  applyHello(state, { type: 'hello', client: 'c9', params: {}, events: [{ seq: 1, kind: 'woke', at: T0 + 9500 }] });
  assert.equal(server.sent.length, before + 2);
  assert.deepEqual(rewind.timeline.events.map((e) => e.seq), [1]);
});
