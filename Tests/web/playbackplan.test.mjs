// node --test Tests/web/  — the page's playback plan (Public/playbackplan.js) against the
// Swift's: Tests/fixtures/playback-sample.plan.json is what PlaybackPlan.swift makes of
// playback-sample.flhistory (PlaybackFixtureTests.swift writes both); the page must make the
// same messages, byte for byte on the wire, with the same answers, offsets and adds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readRecording } from '../../Public/recording.js';
import { makePlaybackPlan, rounded } from '../../Public/playbackplan.js';
import { wireNumber, wireText } from '../../Public/wirejson.js';

const SAMPLE = new Uint8Array(readFileSync(new URL('../fixtures/playback-sample.flhistory', import.meta.url)));
const EXPECTED = JSON.parse(readFileSync(new URL('../fixtures/playback-sample.plan.json', import.meta.url), 'utf8'));

test('the plan is the Swift plan of the same recording, message for message', () => {
  const plan = makePlaybackPlan(readRecording(SAMPLE), { roomParameters: EXPECTED.roomParameters, limits: EXPECTED.limits });
  const got = plan.messages.map((m) => ({ answer: m.answer, offset: m.offset, adds: m.adds, wire: wireText(m.command) }));
  for (let k = 0; k < Math.max(got.length, EXPECTED.messages.length); k++) {
    assert.deepEqual(got[k], EXPECTED.messages[k], `message ${k + 1}`);
  }
  assert.equal(plan.duration, EXPECTED.duration);
  assert.equal(plan.pauses, true);
});

test('the wire writes numbers and strings as the server does', () => {
  for (const [value, text] of [[0, '0'], [-0, '0'], [12, '12'], [-3.25, '-3.25'], [0.0001, '0.0001'], [0.00001, '1e-05'],
    [-4e-5, '-4e-05'], [1.5e-7, '1.5e-07'], [1e16, '1e+16'], [1e15, '1000000000000000.0'], [2 ** 53, '9007199254740992.0'], [123.456, '123.456']]) {
    assert.equal(wireNumber(value), text, String(value));
  }
  assert.equal(wireText({ a: 'Ç "q"\n\t\b', b: null, c: undefined, d: [true, false] }), '{"a":"Ç \\"q\\"\\n\\t\\u0008","b":null,"d":[true,false]}');
});

test('places round to a ten-thousandth, negative ones as positive ones', () => {
  assert.deepEqual(rounded({ x: 1.23456, y: -1.23456 }), { x: 1.2346, y: -1.2346 });
  assert.deepEqual(rounded({ x: -0.00004, y: 2 }), { x: -0, y: 2 });
});
