// node --test Tests/web/  — a room's links (Public/links.js), the page's role as the server
// states it (apply.js), and the key in the connection's offer (net.js)
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import {
  ACCESS_CLOSES, accessClose, chooseKey, describeRole, KEY_PREFIX, linkFromHash, linkUrl, offer, storedOwner, storeOwner,
} from '../../Public/links.js';
import { BATCH_OFFER, connect, SUBPROTOCOLS } from '../../Public/net.js';
import { createState } from '../../Public/state.js';
import { applyMessage } from '../../Public/apply.js';

const SECRET = 'MMtXZE5dZjoTevJuHE8upA';
const OTHER = 'ti0VHFI-R6EmmohGF9ryUQ';

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}

test('a link is the room address with its secret in the fragment', () => {
  assert.deepEqual(linkFromHash(`#edit=${SECRET}`), { kind: 'edit', secret: SECRET });
  assert.deepEqual(linkFromHash(`#view=${SECRET}&at=1,2,3`), { kind: 'view', secret: SECRET });
  assert.deepEqual(linkFromHash('#owner=short'), { kind: 'owner', secret: 'short' }, 'a cut secret is still offered: the server says why');
  for (const none of ['', '#', '#read=x', 'edit=x', null, undefined]) assert.equal(linkFromHash(none), null, String(none));
  assert.equal(linkUrl({ protocol: 'https:', host: 'h:1' }, 'demo', 'view', SECRET), `https://h:1/r/demo#view=${SECRET}`);
  assert.equal(linkUrl({ protocol: 'http:', host: 'h' }, 'main', 'edit', SECRET), `http://h/#edit=${SECRET}`);
});

test('the key rides in the subprotocol offer, only when it can', () => {
  assert.deepEqual(offer(SUBPROTOCOLS, SECRET), ['forcelayout.v2', 'forcelayout.v1', KEY_PREFIX + SECRET]);
  assert.deepEqual(offer(SUBPROTOCOLS, null), SUBPROTOCOLS);
  // a character no subprotocol name may hold would make the browser refuse the socket
  for (const bad of ['with space', 'a,b', 'é', '', 'x'.repeat(65)]) assert.deepEqual(offer(SUBPROTOCOLS, bad), SUBPROTOCOLS, bad);
});

test('the address wins over the owner secret this browser keeps', () => {
  const storage = new MemoryStorage();
  assert.equal(chooseKey('', storage, 'demo'), null);
  storeOwner(storage, 'demo', SECRET);
  assert.equal(storedOwner(storage, 'demo'), SECRET);
  assert.equal(storedOwner(storage, 'other'), null, 'per room');
  assert.deepEqual(chooseKey('', storage, 'demo'), { secret: SECRET, from: 'stored' });
  assert.deepEqual(chooseKey(`#view=${OTHER}`, storage, 'demo'), { secret: OTHER, from: 'address' });
  storeOwner(storage, 'demo', null);
  assert.equal(storedOwner(storage, 'demo'), null);
  storage.setItem('forcelayout.owner.demo', 'not a secret');
  assert.equal(storedOwner(storage, 'demo'), null, 'only a secret\u2019s spelling');
  const refusing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); } };
  assert.equal(chooseKey('', refusing, 'demo'), null);
  storeOwner(refusing, 'demo', SECRET); // does not throw
});

test('closes of the room\u2019s access say why, and whether to come back without the key', () => {
  assert.deepEqual(Object.keys(ACCESS_CLOSES).map(Number), [4401, 4403, 4404, 4410]);
  assert.equal(accessClose(4410, 'demo').retry, false);
  assert.match(accessClose(4410, 'demo').message, /deleted/);
  assert.equal(accessClose(4401, 'demo').retry, true);
  assert.equal(accessClose(4403, 'demo').retry, true);
  const turned = accessClose(4403, 'demo', { hadKey: false });
  assert.equal(turned.retry, false, 'without a link, a room made private is the end');
  assert.match(turned.message, /made private/);
  const refused = accessClose(4404, 'demo');
  assert.equal(refused.retry, false);
  assert.match(refused.message, /private/);
  for (const other of [1000, 1001, 1006, 1008, 1012, 4000, undefined]) assert.equal(accessClose(other, 'demo'), null, String(other));
  assert.match(describeRole('viewer', 'view'), /View only/);
  assert.match(describeRole('owner', 'private'), /own this room \(private/);
  assert.equal(describeRole('editor', 'open'), '');
});

test('hello and role messages give the page its role, the access and the links it may hand on', () => {
  const s = createState();
  const seen = [];
  s.on('access', () => seen.push([s.role, s.access, s.links]));
  applyMessage(s, { type: 'hello', client: 'c1', role: 'owner', access: 'open', links: { owner: SECRET, edit: OTHER, view: SECRET } });
  assert.deepEqual(seen.pop(), ['owner', 'open', { owner: SECRET, edit: OTHER, view: SECRET }]);
  applyMessage(s, { type: 'role', role: 'owner', access: 'open', links: { owner: SECRET, edit: OTHER, view: SECRET } });
  assert.equal(seen.length, 0, 'nothing changed: no event');
  applyMessage(s, { type: 'role', role: 'viewer', access: 'view' });
  assert.deepEqual(seen.pop(), ['viewer', 'view', null]);
  applyMessage(s, { type: 'role', role: 'editor', access: 'private', links: { edit: OTHER, view: SECRET } });
  assert.deepEqual(seen.pop(), ['editor', 'private', { edit: OTHER, view: SECRET }]);
  // an older server says nothing of it: an editor of an open room
  applyMessage(s, { type: 'hello', client: 'c2' });
  assert.deepEqual(seen.pop(), ['editor', 'open', null]);
  applyMessage(s, { type: 'role', role: 'king', access: 'secret', links: { edit: 'x', view: 1 } });
  assert.equal(seen.length, 0, 'what the page cannot use is ignored');
});

class FakeSocket extends EventTarget {
  static made = [];
  static OPEN = 1;
  constructor(url, protocols) {
    super();
    this.offered = protocols;
    this.readyState = 0;
    FakeSocket.made.push(this);
  }
  close(code) {
    this.readyState = 3;
    const e = new Event('close');
    e.code = code;
    e.reason = '';
    this.dispatchEvent(e);
  }
}

test('the offer is asked anew at each attempt, and an access close can stop the retries', () => {
  const before = globalThis.WebSocket;
  globalThis.WebSocket = FakeSocket;
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    FakeSocket.made = [];
    let key = SECRET;
    const states = [];
    const closes = [];
    connect({
      url: 'ws://h/ws/demo',
      protocols: () => offer(SUBPROTOCOLS, key),
      onMessage() {},
      onState: (state) => states.push(state),
      onClose({ code }) {
        closes.push(code);
        if (code === 4401) {
          key = null;
          return undefined;
        }
        return code === 4404 ? 'stop' : undefined;
      },
    });
    assert.deepEqual(FakeSocket.made[0].offered, [...SUBPROTOCOLS, KEY_PREFIX + SECRET, BATCH_OFFER]);
    FakeSocket.made[0].close(4401);
    mock.timers.tick(250);
    assert.deepEqual(FakeSocket.made[1].offered, [...SUBPROTOCOLS, BATCH_OFFER], 'the rotated key is no longer offered');
    FakeSocket.made[1].close(4404);
    mock.timers.tick(10000);
    assert.equal(FakeSocket.made.length, 2, 'no attempt after a stop');
    assert.deepEqual(closes, [4401, 4404]);
    assert.deepEqual(states, ['reconnecting', 'refused']);
  } finally {
    mock.timers.reset();
    globalThis.WebSocket = before;
  }
});
