// node --test Tests/web/  — playing a recording (Public/playback.js), as the CLI's
// PlaybackSession: the recording's ids stand for the room's as each `added` answers, messages
// wait for their cells' ids and for their time at the recording's pace, an error answer stops
// it with the server's words, and stopping unpauses a room the playback paused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readRecording } from '../../Public/recording.js';
import { createPlayback, minutes } from '../../Public/playback.js';

const SAMPLE = readRecording(new Uint8Array(readFileSync(new URL('../fixtures/playback-sample.flhistory', import.meta.url))));
const { roomParameters, limits } = JSON.parse(readFileSync(new URL('../fixtures/playback-sample.plan.json', import.meta.url), 'utf8'));

test('the room\'s ids stand for the recording\'s, and a message waits for its cells\' ids', () => {
  const p = createPlayback(SAMPLE, { roomParameters, limits, speed: 0 });
  assert.deepEqual(p.next(0), { type: 'params', charge: 15, paused: true, ref: 'play-1' });
  const add = p.next(0);
  assert.equal(add.ref, 'play-2');
  assert.equal(add.cells.length, 3);
  assert.equal(p.next(0), null, 'the link waits for the ids of its cells');
  assert.equal(p.event({ kind: 'params', by: 'c9' }, 'c3'), false, 'someone else\'s');
  assert.ok(p.event({ kind: 'params', by: 'c3' }, 'c3'));
  assert.ok(p.event({ kind: 'added', by: 'c3', ids: [41, 42, 43] }, 'c3'));
  const link = p.next(0);
  assert.deepEqual(link.links.map((l) => [l.source, l.target]), [[41, 42], [42, 43]]);
  assert.deepEqual(p.next(0), { type: 'pin', id: 42, x: 10, y: 0, ref: 'play-4' });
  assert.deepEqual(p.progress.done, 2);
});

test('at 1x a message waits for its time in the recording; 2x twice as fast', () => {
  for (const [speed, due] of [[1, 200], [2, 100]]) {
    const p = createPlayback(SAMPLE, { roomParameters, limits, speed });
    p.next(0);
    p.event({ kind: 'params', by: 'me' }, 'me');
    p.next(0);
    p.event({ kind: 'added', by: 'me', ids: [1, 2, 3] }, 'me');
    p.next(0);
    p.event({ kind: 'linked', by: 'me' }, 'me');
    p.next(0);
    p.event({ kind: 'pinned', by: 'me' }, 'me');
    assert.equal(p.next(due - 1), null, 'the keyframe at 200 ms is not due yet');
    assert.ok(p.wake() > 0);
    assert.equal(p.next(due).type, 'update');
  }
});

test('an error answer stops it with the server\'s words; the room is unpaused', () => {
  const p = createPlayback(SAMPLE, { roomParameters, limits, speed: 0 });
  p.next(0);
  p.next(0);
  assert.equal(p.refused({ ref: 'play-99', message: 'not ours' }), false);
  assert.ok(p.refused({ ref: 'play-2', message: 'the room is full (maxCells 2)' }));
  assert.ok(p.done);
  assert.equal(p.failed, 'the server refused its add: the room is full (maxCells 2)');
  assert.deepEqual(p.stop(), { type: 'params', paused: false });
});

test('stopping unpauses only a room the playback paused; to the end, nothing is owed', () => {
  const paused = createPlayback(SAMPLE, { roomParameters: { ...roomParameters, paused: true }, limits, speed: 0 });
  paused.next(0);
  assert.equal(paused.stop(), null, 'the room was paused before');
  const p = createPlayback(SAMPLE, { roomParameters, limits, speed: 0 });
  assert.equal(p.stop(), null, 'nothing sent');
  const whole = createPlayback(SAMPLE, { roomParameters, limits, speed: 0 });
  let id = 100;
  for (;;) {
    const m = whole.next(0);
    if (m === null) break;
    const answer = whole.plan.messages[Number(m.ref.slice(5)) - 1];
    whole.event({ kind: answer.answer, by: 'me', ids: answer.adds.map(() => id++) }, 'me');
  }
  assert.ok(whole.finished, `played to the end: ${whole.progress.done} of ${whole.total}`);
  assert.equal(whole.progress.at, 3600);
  assert.equal(whole.stop(), null);
  assert.equal(minutes(250000), '4:10');
});
