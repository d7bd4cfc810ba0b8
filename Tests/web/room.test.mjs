// node --test Tests/web/  — room names and addresses (Public/room.js), the page's WebSocket
// per room (Public/net.js socketUrl)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAIN_ROOM, checkRoomName, isRoomName, pageTitle, roomFromPath, roomPath, roomUrl, socketPath, suggestRoomName,
} from '../../Public/room.js';
import { socketUrl } from '../../Public/net.js';

const at = (href) => new URL(href); // a location: protocol, host, pathname

test('room names: exactly ^[a-z0-9][a-z0-9_-]{0,39}$, as the server checks them', () => {
  for (const name of ['main', 'demo', 'a', '0', '9lives', 'my-room', 'my_room', 'a-', 'a_', 'x'.repeat(40), 'a--b', '0_0']) {
    assert.ok(isRoomName(name), name);
  }
  for (const name of ['', 'Demo', 'DEMO', '-x', '_x', 'x'.repeat(41), 'my room', 'a.b', 'a/b', '..', '%64emo', 'caf\u00e9',
    'demo\n', ' demo', 'demo ', '\u0430bc' /* Cyrillic a */, 'ａ' /* fullwidth */, 'a\u0000', null, undefined, 42, ['demo']]) {
    assert.equal(isRoomName(name), false, JSON.stringify(name));
  }
});

test('the room of a page address: / and /index.html are main, /r/NAME is NAME', () => {
  const cases = [
    ['/', 'main'],
    ['/index.html', 'main'],
    ['/r/demo', 'demo'],
    ['/r/main', 'main'],
    ['/r/a', 'a'],
    ['/r/my-room_2', 'my-room_2'],
    [`/r/${'x'.repeat(40)}`, 'x'.repeat(40)],
    // paths the server does not serve the page at: main, never a room of another name
    ['/r/', 'main'],
    ['/r', 'main'],
    ['/r/Demo', 'main'],
    ['/r/-x', 'main'],
    ['/r/demo/', 'main'],
    ['/r/demo/x', 'main'],
    ['/r/%64emo', 'main'],
    ['/r/..%2f', 'main'],
    [`/r/${'x'.repeat(41)}`, 'main'],
    ['/demo', 'main'],
    ['/rooms', 'main'],
    ['', 'main'],
    [undefined, 'main'],
  ];
  for (const [path, room] of cases) assert.equal(roomFromPath(path), room, String(path));
  assert.equal(MAIN_ROOM, 'main');
});

test('addresses of a room: its page, its WebSocket, absolute for sharing', () => {
  assert.equal(roomPath('main'), '/');
  assert.equal(roomPath('demo'), '/r/demo');
  assert.equal(socketPath('main'), '/ws');
  assert.equal(socketPath('demo'), '/ws/demo');
  assert.equal(roomUrl(at('http://127.0.0.1:8080/r/x?perf'), 'demo'), 'http://127.0.0.1:8080/r/demo');
  assert.equal(roomUrl(at('https://example.org/'), 'main'), 'https://example.org/');
  assert.equal(roomUrl(at('http://[::1]:9000/'), 'a_b'), 'http://[::1]:9000/r/a_b');
  // every room's page address names that room again
  for (const room of ['main', 'demo', 'x'.repeat(40), '0']) assert.equal(roomFromPath(roomPath(room)), room);
  assert.equal(pageTitle('demo'), 'demo \u00b7 forcelayout');
});

test('socketUrl: /ws for main, /ws/NAME for a room, from the page address or given', () => {
  // without a path (the old call): main
  assert.equal(socketUrl({ protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/ws');
  assert.equal(socketUrl(at('http://127.0.0.1:8080/')), 'ws://127.0.0.1:8080/ws');
  assert.equal(socketUrl(at('http://127.0.0.1:8080/index.html')), 'ws://127.0.0.1:8080/ws');
  assert.equal(socketUrl(at('http://127.0.0.1:8080/r/demo')), 'ws://127.0.0.1:8080/ws/demo');
  assert.equal(socketUrl(at('http://127.0.0.1:8080/r/demo?perf#x')), 'ws://127.0.0.1:8080/ws/demo');
  assert.equal(socketUrl(at('http://127.0.0.1:8080/r/main')), 'ws://127.0.0.1:8080/ws');
  assert.equal(socketUrl(at('https://example.org/r/demo')), 'wss://example.org/ws/demo');
  assert.equal(socketUrl(at('https://example.org/r/Demo')), 'wss://example.org/ws');
  assert.equal(socketUrl(at('http://h:1/'), 'other'), 'ws://h:1/ws/other');
});

test('a typed name: valid as typed (blanks around it dropped), or one sentence saying what is wrong', () => {
  assert.deepEqual(checkRoomName('demo'), { ok: true, name: 'demo' });
  assert.deepEqual(checkRoomName('  demo\n'), { ok: true, name: 'demo' });
  assert.deepEqual(checkRoomName('x'.repeat(40)), { ok: true, name: 'x'.repeat(40) });
  const wrong = (typed) => {
    const r = checkRoomName(typed);
    assert.equal(r.ok, false, typed);
    return [r.message, r.suggestion];
  };
  assert.deepEqual(wrong(''), ['Type a room name.', null]);
  assert.deepEqual(wrong('   '), ['Type a room name.', null]);
  assert.deepEqual(wrong('Demo'), ['Room names are lower case. Try \u201cdemo\u201d.', 'demo']);
  assert.deepEqual(wrong('DEMO'), ['Room names are lower case. Try \u201cdemo\u201d.', 'demo']);
  assert.deepEqual(wrong('my room'), ['Use only a\u2013z, 0\u20139, - and _ (no spaces). Try \u201cmy-room\u201d.', 'my-room']);
  assert.deepEqual(wrong('My Room!'), ['Use only a\u2013z, 0\u20139, - and _ (no spaces). Try \u201cmy-room\u201d.', 'my-room']);
  assert.deepEqual(wrong('-x'), ['Start with a letter or a digit. Try \u201cx\u201d.', 'x']);
  assert.deepEqual(wrong('_'), ['Start with a letter or a digit.', null]);
  assert.deepEqual(wrong('x'.repeat(41)), [`At most 40 characters. Try \u201c${'x'.repeat(40)}\u201d.`, 'x'.repeat(40)]);
  assert.deepEqual(wrong('caf\u00e9'), ['Use only a\u2013z, 0\u20139, - and _ (no spaces). Try \u201ccafe\u201d.', 'cafe']);
  assert.deepEqual(wrong('!!!'), ['Use only a\u2013z, 0\u20139, - and _ (no spaces).', null]);
  assert.deepEqual(wrong('../etc'), ['Use only a\u2013z, 0\u20139, - and _ (no spaces). Try \u201cetc\u201d.', 'etc']);
  assert.equal(checkRoomName(undefined).ok, false);
  assert.equal(checkRoomName(null).ok, false);
});

test('a suggested name is always valid, or there is none', () => {
  const samples = ['Hello World', '  --A--  ', 'r/demo', 'a.b.c', '\u00c9t\u00e9 2025', 'x'.repeat(39) + ' y', '\u65e5\u672c', '__', 'A'.repeat(80)];
  for (const s of samples) {
    const suggestion = suggestRoomName(s);
    assert.ok(suggestion === null || isRoomName(suggestion), `${s} -> ${suggestion}`);
  }
  assert.equal(suggestRoomName('Hello World'), 'hello-world');
  assert.equal(suggestRoomName('\u00c9t\u00e9 2025'), 'ete-2025');
  assert.equal(suggestRoomName('x'.repeat(39) + ' y'), 'x'.repeat(39)); // cut at 40, no '-' at the end
  assert.equal(suggestRoomName('\u65e5\u672c'), null);
});
