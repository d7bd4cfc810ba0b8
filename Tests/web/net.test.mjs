// node --test Tests/web/  — the connection of Public/net.js, with fake WebSockets and mock timers
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, BATCH_OFFER, connect, reconnectDelay, RESTART_JITTER_MS, SERVICE_RESTART, socketUrl, SUBPROTOCOLS } from '../../Public/net.js';
import { createState, setConnection } from '../../Public/state.js';
import { applyMessage } from '../../Public/apply.js';

// A WebSocket the test drives: every instance is kept; open(), message(text), close() fire
// the browser's events.
class FakeSocket extends EventTarget {
  static CONNECTING = 0;
  static OPEN = 1;
  static made = [];
  constructor(url, protocols) {
    super();
    this.url = url;
    this.offered = protocols;
    this.protocol = ''; // what the server chose, once open
    this.binaryType = 'blob';
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(text);
  }
  open(protocol = 'forcelayout.v2') {
    this.protocol = protocol;
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  message(data) {
    const e = new Event('message');
    e.data = data;
    this.dispatchEvent(e);
  }
  close(code = 1006) {
    this.readyState = 3;
    this.dispatchEvent(new Event('error'));
    const e = new Event('close');
    e.code = code;
    this.dispatchEvent(e);
  }
}

// A WebSocket constructor that throws (a blocked port, a bad URL, a browser policy).
class ThrowingSocket {
  static OPEN = 1;
  static attempts = 0;
  constructor() {
    ThrowingSocket.attempts++;
    throw new DOMException('blocked', 'SecurityError');
  }
}

function withSocket(Impl, fn) {
  return (t) => {
    const before = globalThis.WebSocket;
    globalThis.WebSocket = Impl;
    mock.timers.enable({ apis: ['setTimeout'] });
    const debug = t.mock.method(console, 'debug', () => {});
    try {
      fn(debug);
    } finally {
      mock.timers.reset();
      globalThis.WebSocket = before;
    }
  };
}

test('socket url and backoff', () => {
  assert.equal(socketUrl({ protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/ws');
  assert.equal(socketUrl({ protocol: 'https:', host: 'example.org' }), 'wss://example.org/ws');
  assert.deepEqual(SUBPROTOCOLS, ['forcelayout.v2', 'forcelayout.v1'], 'v2 first: a v2 server picks it, an older one answers v1');
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 50].map((n) => backoffDelay(n)), [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
});

test('a close with 1012 (the server restarts) reconnects at once, within the jitter; others after the backoff', () => {
  assert.equal(SERVICE_RESTART, 1012);
  assert.equal(reconnectDelay(1012, 0, 0), 0);
  assert.equal(reconnectDelay(1012, 0, 0.999), 0.999 * RESTART_JITTER_MS);
  assert.ok(RESTART_JITTER_MS <= 250, 'a restart must not cost a viewer more than a quarter second');
  assert.equal(reconnectDelay(1012, 1, 0), backoffDelay(1), 'the server it reached refused too: back off');
  for (const code of [1000, 1001, 1006, 1011, 1013, undefined]) assert.equal(reconnectDelay(code, 0, 0), backoffDelay(0), String(code));
});

test('the page reconnects within the jitter after a 1012 close, after the backoff after another', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const states = [];
  connect({ url: 'ws://x/ws', protocols: SUBPROTOCOLS, onMessage() {}, onBinary() {}, onState: (s) => states.push(s), onBytes() {}, onClose() {} });
  FakeSocket.made[0].open();
  FakeSocket.made[0].message('{"type":"hello"}');
  FakeSocket.made[0].close(1012);
  mock.timers.tick(RESTART_JITTER_MS);
  assert.equal(FakeSocket.made.length, 2, 'a new socket within the jitter');
  FakeSocket.made[1].open();
  FakeSocket.made[1].message('{"type":"hello"}');
  FakeSocket.made[1].close(1006);
  mock.timers.tick(backoffDelay(0) - 1);
  assert.equal(FakeSocket.made.length, 2, 'a drop waits for the backoff');
  mock.timers.tick(1);
  assert.equal(FakeSocket.made.length, 3);
}));

test('a WebSocket constructor that throws does not break wiring declared after connect()', withSocket(ThrowingSocket, () => {
  ThrowingSocket.attempts = 0;
  const states = [];
  // the shape of the page's old wiring: the callback uses a binding declared below connect(),
  // which a callback run inside connect() would hit before its initialisation
  const net = connect({
    url: 'ws://127.0.0.1:1/ws',
    onMessage: () => assert.fail('no message'),
    onState: (s) => {
      states.push(s);
      wiredLater.touched++;
    },
  });
  const wiredLater = { touched: 0 };
  assert.equal(ThrowingSocket.attempts, 1);
  assert.deepEqual(states, [], 'nothing is reported from inside connect()');
  assert.equal(net.send({ type: 'add' }), false);

  mock.timers.tick(0);
  assert.deepEqual(states, ['reconnecting']);
  assert.equal(wiredLater.touched, 1);
  // then it keeps trying, backing off: 250, 500, 1000 ms
  mock.timers.tick(249);
  assert.equal(ThrowingSocket.attempts, 1);
  mock.timers.tick(1);
  assert.equal(ThrowingSocket.attempts, 2);
  mock.timers.tick(500);
  assert.equal(ThrowingSocket.attempts, 3);
  mock.timers.tick(999);
  assert.equal(ThrowingSocket.attempts, 3);
  mock.timers.tick(1);
  assert.equal(ThrowingSocket.attempts, 4);
  assert.deepEqual(states, ['reconnecting', 'reconnecting', 'reconnecting', 'reconnecting']);
}));

test('messages are parsed and counted; a closed socket is reopened with backoff', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const states = [];
  const messages = [];
  const bytes = [];
  const net = connect({
    url: 'ws://h/ws',
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    onBytes: (n) => bytes.push(n),
  });
  assert.equal(FakeSocket.made.length, 1);
  const ws = FakeSocket.made[0];
  assert.equal(ws.url, 'ws://h/ws');
  assert.deepEqual(ws.offered, [...SUBPROTOCOLS, BATCH_OFFER], 'batches asked for in the offer');
  assert.equal(ws.binaryType, 'arraybuffer');
  assert.equal(net.send({ type: 'add' }), false, 'not open yet: dropped');
  ws.open();
  assert.deepEqual(states, ['open']);
  assert.equal(net.send({ type: 'add', count: 2 }), true);
  assert.deepEqual(ws.sent, ['{"type":"add","count":2}']);
  ws.message('{"type":"hello"}');
  ws.message('not json');
  ws.message('[1,2]');
  assert.deepEqual(messages, [{ type: 'hello' }]);
  assert.deepEqual(bytes, [16, 8, 5]);

  ws.close();
  assert.deepEqual(states, ['open', 'reconnecting']);
  assert.equal(net.send({ type: 'add' }), false);
  mock.timers.tick(250);
  assert.equal(FakeSocket.made.length, 2);
  FakeSocket.made[1].close(); // refused again: the next wait doubles
  mock.timers.tick(499);
  assert.equal(FakeSocket.made.length, 2);
  mock.timers.tick(1);
  assert.equal(FakeSocket.made.length, 3);
  // the server talked: the next drop starts the backoff over
  FakeSocket.made[2].open();
  FakeSocket.made[2].message('{"type":"hello"}');
  FakeSocket.made[2].close();
  mock.timers.tick(250);
  assert.equal(FakeSocket.made.length, 4);
}));

test('a batch is delivered message by message, in order', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const messages = [];
  const bytes = [];
  connect({ url: 'ws://h/ws', onMessage: (m) => messages.push(m), onBytes: (n) => bytes.push(n) });
  const ws = FakeSocket.made[0];
  ws.open();
  assert.equal(BATCH_OFFER, 'forcelayout.batch');
  const batch = JSON.stringify({
    type: 'batch',
    messages: [
      { type: 'event', seq: 7, kind: 'left', client: 'c1', clients: 2 },
      'not a message', null, [1],
      { type: 'event', seq: 8, kind: 'joined', client: 'c9', clients: 3 },
      { type: 'stats', cells: 4 },
    ],
  });
  ws.message(batch);
  assert.deepEqual(messages.map((m) => m.seq ?? m.type), [7, 8, 'stats'], 'each message as if alone; what is not one is skipped');
  assert.deepEqual(bytes, [batch.length], 'the batch counts once, as it came');
  ws.message('{"type":"batch","messages":"nope"}');
  assert.equal(messages.at(-1).type, 'batch', 'a malformed batch is one message the page ignores');
}));

test('a batched message whose handler throws does not stop the rest', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const seen = [];
  connect({
    url: 'ws://h/ws',
    onMessage: (m) => {
      seen.push(m.seq);
      if (m.seq === 1) throw new TypeError('unexpected shape');
    },
  });
  FakeSocket.made[0].open();
  FakeSocket.made[0].message('{"type":"batch","messages":[{"type":"event","seq":1},{"type":"event","seq":2}]}');
  assert.deepEqual(seen, [1, 2]);
}));

test('told to reconnect, the page opens its next socket while the old one streams, and moves at its hello', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const messages = [];
  const states = [];
  const closes = [];
  const net = connect({ url: 'ws://h/ws', onMessage: (m) => messages.push(m), onState: (s) => states.push(s), onClose: (c) => closes.push(c) });
  const old = FakeSocket.made[0];
  old.open();
  old.message('{"type":"hello","client":"c1"}');
  old.message('{"type":"batch","messages":[{"type":"event","seq":1},{"type":"reconnect","closesInMs":2000}]}');
  old.message('{"type":"reconnect","closesInMs":1990}');
  assert.deepEqual(messages.map((m) => m.type), ['hello', 'event'], 'reconnect is the connection\'s own');
  assert.equal(FakeSocket.made.length, 1, 'not before the jitter');
  mock.timers.tick(RESTART_JITTER_MS);
  assert.equal(FakeSocket.made.length, 2, 'one successor, however often told');
  const next = FakeSocket.made[1];
  old.message('{"type":"frame","tick":5}');
  assert.equal(messages.at(-1).tick, 5, 'the old socket still streams');
  next.open();
  assert.deepEqual(next.offered, [...SUBPROTOCOLS, BATCH_OFFER]);
  assert.equal(net.send({ type: 'add' }), true);
  assert.equal(old.sent.at(-1), '{"type":"add"}', 'until the move, the page talks on the old socket');
  next.message('{"type":"hello","client":"c9@b"}');
  assert.equal(old.readyState, 3, 'the old socket is closed at the hello');
  assert.deepEqual(closes, [], 'a move is no close to the page');
  assert.deepEqual(states, ['open', 'open']);
  old.message('{"type":"frame","tick":6}');
  next.message('{"type":"frame","tick":7}');
  assert.deepEqual(messages.slice(-2).map((m) => m.client ?? m.tick), ['c9@b', 7], 'only the new socket is heard');
  net.send({ type: 'add', count: 2 });
  assert.equal(next.sent.at(-1), '{"type":"add","count":2}');
  mock.timers.tick(10000);
  assert.equal(FakeSocket.made.length, 2, 'no reconnect after a move');
}));

test('a successor that finds no server leaves the old socket, whose 1012 close then reconnects as before', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const states = [];
  connect({ url: 'ws://h/ws', onMessage() {}, onState: (s) => states.push(s) });
  const old = FakeSocket.made[0];
  old.open();
  old.message('{"type":"hello"}');
  old.message('{"type":"reconnect","closesInMs":2000}');
  mock.timers.tick(RESTART_JITTER_MS);
  FakeSocket.made[1].close(1006);
  assert.deepEqual(states, ['open'], 'the old socket serves on');
  old.close(1012);
  assert.deepEqual(states, ['open', 'reconnecting']);
  mock.timers.tick(RESTART_JITTER_MS);
  assert.equal(FakeSocket.made.length, 3, 'a restart\'s reconnect, within the jitter');
}));

test('the old socket closed before its successor was opened: one reconnect, no successor', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  connect({ url: 'ws://h/ws', onMessage() {} });
  const old = FakeSocket.made[0];
  old.open();
  old.message('{"type":"hello"}');
  old.message('{"type":"reconnect","closesInMs":0}');
  old.close(1012);
  mock.timers.tick(RESTART_JITTER_MS);
  assert.equal(FakeSocket.made.length, 2, 'the reconnect');
  FakeSocket.made[1].open();
  mock.timers.tick(RESTART_JITTER_MS);
  assert.equal(FakeSocket.made.length, 2, 'no successor beside it');
}));

test('the old socket closed before the successor\'s hello: the successor is the page\'s', withSocket(FakeSocket, () => {
  FakeSocket.made = [];
  const messages = [];
  const states = [];
  connect({ url: 'ws://h/ws', onMessage: (m) => messages.push(m), onState: (s) => states.push(s) });
  const old = FakeSocket.made[0];
  old.open();
  old.message('{"type":"hello"}');
  old.message('{"type":"reconnect","closesInMs":50}');
  mock.timers.tick(RESTART_JITTER_MS);
  const next = FakeSocket.made[1];
  next.open();
  old.close(1012);
  assert.deepEqual(states, ['open'], 'no reconnecting: the next socket is on its way');
  next.message('{"type":"hello","client":"c2"}');
  assert.equal(messages.at(-1).client, 'c2');
  assert.equal(FakeSocket.made.length, 2);
}));

test('a handler that throws never breaks the connection', withSocket(FakeSocket, (debug) => {
  FakeSocket.made = [];
  let calls = 0;
  connect({
    url: 'ws://h/ws',
    onMessage: () => {
      calls++;
      throw new TypeError('unexpected shape');
    },
  });
  const ws = FakeSocket.made[0];
  ws.open();
  ws.message('{"type":"frame"}');
  ws.message('{"type":"frame"}');
  assert.equal(calls, 2);
  assert.ok(debug.mock.callCount() >= 2);
}));

test("the page's state hears the failed attempts as 'reconnecting', after connect() returned", withSocket(ThrowingSocket, () => {
  const state = createState();
  const heard = [];
  state.on('connection', () => heard.push(state.connection));
  connect({
    url: 'ws://127.0.0.1:1/ws',
    onMessage: (msg) => applyMessage(state, msg),
    onState: (connection) => setConnection(state, connection),
  });
  assert.equal(state.connection, 'connecting');
  mock.timers.tick(0);
  assert.deepEqual(heard, ['reconnecting']);
  mock.timers.tick(250);
  assert.deepEqual(heard, ['reconnecting'], 'still reconnecting: no new event');
}));

test('binary messages go to onBinary unparsed, counted by byteLength; the chosen protocol is known', withSocket(FakeSocket, (debug) => {
  FakeSocket.made = [];
  const binaries = [];
  const messages = [];
  const bytes = [];
  const net = connect({
    url: 'ws://h/ws',
    onMessage: (m) => messages.push(m),
    onBinary: (b) => {
      binaries.push(b);
      if (b.byteLength === 13) throw new RangeError('a handler that throws');
    },
    onBytes: (n) => bytes.push(n),
  });
  assert.equal(net.protocol, '');
  const ws = FakeSocket.made[0];
  ws.open('forcelayout.v2');
  assert.equal(net.protocol, 'forcelayout.v2');
  const frame = new ArrayBuffer(48);
  ws.message(frame);
  ws.message(new ArrayBuffer(13));
  ws.message('{"type":"stats"}');
  assert.deepEqual(binaries.map((b) => b.byteLength), [48, 13]);
  assert.equal(binaries[0], frame, 'the very bytes, not a copy');
  assert.deepEqual(messages, [{ type: 'stats' }]);
  assert.deepEqual(bytes, [48, 13, 16]);
  assert.ok(debug.mock.callCount() >= 1, 'the throwing handler is reported, not thrown');
  // an older server answers v1: frames come as JSON text
  ws.close();
  mock.timers.tick(250);
  FakeSocket.made[1].open('forcelayout.v1');
  assert.equal(net.protocol, 'forcelayout.v1');
  FakeSocket.made[1].message('{"type":"frame","v":1,"xy":[]}');
  assert.equal(messages.length, 2);
}));
