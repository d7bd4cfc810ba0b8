// node --test Tests/web/  — the page's reader of recordings (Public/recording.js): the sample
// recording the server's own writer made (Tests/fixtures/playback-sample.flhistory,
// PlaybackFixtureTests.swift) read whole, its tail cut, a CRC wrong in its middle, and files
// that are no recording or damaged from their start refused in the CLI's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crc32, isRecording, keyframePositions, readRecording, recordingCounts, recordingSpan } from '../../Public/recording.js';

const SAMPLE = new Uint8Array(readFileSync(new URL('../fixtures/playback-sample.flhistory', import.meta.url)));
const HEADER = new TextEncoder().encode('FLHIST1\n');
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
// Where each record of the sample starts (its framing, read without the reader).
function recordStarts(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts = [];
  for (let at = HEADER.length; at < bytes.length; at += 8 + view.getUint32(at, true)) starts.push(at);
  return starts;
}

test('crc32 is zlib\'s', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
  assert.equal(crc32(new TextEncoder().encode('The quick brown fox jumps over the lazy dog')), 0x414fa339);
});

test('the sample reads whole: its checkpoints, events and keyframes', () => {
  assert.ok(isRecording(SAMPLE));
  const recording = readRecording(SAMPLE);
  assert.equal(recording.cutBytes, 0);
  assert.deepEqual(recordingCounts(recording), { events: 19, keyframes: 5 });
  const [first] = recording.records;
  assert.equal(first.type, 'checkpoint');
  assert.equal(first.at, 1763700000000);
  assert.deepEqual(first.state.cells.map((c) => [c.id, c.x, c.y, c.pinned]), [[1, -3.25, 4.5, false], [2, 10, 0, true], [3, 0.123456, -9.87654, false]]);
  assert.deepEqual(first.state.cells[0].data, { label: 'one', color: '#aa0000', group: null, key: 'n1', attrs: { club: 'Mr. Hi', w: 2 } });
  assert.equal(first.state.cells[2].data.key, 7, 'a number key stays a number');
  assert.equal(first.state.parameters.charge, 15);
  assert.deepEqual(first.state.links.map((l) => [l.link.source, l.link.target, l.link.distance, l.link.strength, l.attrs]),
    [[1, 2, 40, null, { weight: 1.5 }], [2, 3, null, 0.5, null]]);
  const events = recording.records.filter((r) => r.type === 'event');
  assert.deepEqual(events.map((e) => e.seq), [1, ...Array.from({ length: 18 }, (_, k) => k + 3)]);
  assert.deepEqual(events.find((e) => e.event.kind === 'pinned').event.detail, { id: 4, x: 1.5, y: -2.25 });
  const failovers = events.filter((e) => e.event.kind === 'failover').map((e) => e.event.detail);
  assert.deepEqual(failovers.map((d) => d.parameters?.charge ?? null), [null, 15], 'one from before failovers said them, one that does');
  const frames = recording.records.filter((r) => r.type === 'keyframe');
  assert.deepEqual(frames[2].ids, [1, 2, 3, 4, 5], 'a keyframe without ids has those of the one before');
  const at = keyframePositions(frames[1]).get(4);
  assert.ok(Math.abs(at.x - 20.25) < 0.01 && Math.abs(at.y + 7.125) < 0.01, JSON.stringify(at));
  assert.equal(recordingSpan(recording), 3600);
});

test('a tail cut short is left out and counted', () => {
  const starts = recordStarts(SAMPLE);
  const last = starts.at(-1);
  const cut = SAMPLE.subarray(0, SAMPLE.length - 3);
  const recording = readRecording(cut);
  assert.equal(recording.cutBytes, cut.length - last);
  assert.deepEqual(recordingCounts(recording), { events: 18, keyframes: 5 });
});

test('a wrong CRC in the middle ends the recording there', () => {
  const starts = recordStarts(SAMPLE);
  const damaged = SAMPLE.slice();
  const middle = starts[10];
  damaged[middle + 12] ^= 0x20; // a byte of its body
  const recording = readRecording(damaged);
  assert.equal(recording.records.length, 10);
  assert.equal(recording.cutBytes, SAMPLE.length - middle);
});

test('what is no recording, or is damaged from its start, is refused in words', () => {
  const firstEvent = SAMPLE.subarray(recordStarts(SAMPLE)[1], recordStarts(SAMPLE)[2]);
  for (const [bytes, why] of [
    [new TextEncoder().encode('{"nodes":[]}'), 'not a forcelayout recording: a .flhistory file starts with "FLHIST1"'],
    [new Uint8Array(0), 'not a forcelayout recording: a .flhistory file starts with "FLHIST1"'],
    [HEADER, 'an empty recording: a header and no record'],
    [concat(HEADER, new Uint8Array([40, 0, 0, 0, 1, 2])), 'a damaged recording: its first record is not whole (6 bytes after the header)'],
    [concat(HEADER, firstEvent), 'a damaged recording: it does not start with a checkpoint of the room'],
  ]) {
    assert.throws(() => readRecording(bytes), { message: why });
  }
  assert.equal(isRecording(new TextEncoder().encode('a,b\n')), false);
});
