// node --test Tests/web/  — the canvas's video (Public/recorder.js): the format asked of the
// browser, the file's name, the length shown
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VIDEO_TYPES, duration, videoName, videoType } from '../../Public/recorder.js';

test('the best WebM the browser records, or none', () => {
  assert.equal(videoType(() => true), 'video/webm;codecs=vp9');
  assert.equal(videoType((t) => t !== 'video/webm;codecs=vp9'), 'video/webm;codecs=vp8');
  assert.equal(videoType((t) => t === 'video/webm'), 'video/webm');
  assert.equal(videoType(() => false), null);
  assert.equal(videoType(() => {
    throw new Error('no');
  }), null);
  assert.ok(VIDEO_TYPES.every((t) => t.startsWith('video/webm')));
});

test('forcelayout-ROOM-DATE.webm, in local time', () => {
  assert.equal(videoName('demo', new Date(2026, 10, 28, 14, 3, 7)), 'forcelayout-demo-2026-11-28-140307.webm');
  assert.equal(videoName('main', new Date(2027, 0, 2, 3, 4, 5)), 'forcelayout-main-2027-01-02-030405.webm');
});

test('lengths read as minutes and seconds', () => {
  assert.equal(duration(0), '0:00');
  assert.equal(duration(7999), '0:07');
  assert.equal(duration(750000), '12:30');
  assert.equal(duration(-5), '0:00');
});
