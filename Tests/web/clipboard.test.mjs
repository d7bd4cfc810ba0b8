// node --test Tests/web/  — copying the room's address wherever the page runs (Public/clipboard.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyText } from '../../Public/clipboard.js';

const URL_TEXT = 'http://192.168.1.5:8080/r/demo';

test('the Clipboard API when there is one; the old way is not tried', async () => {
  const written = [];
  const clipboard = { writeText: async (t) => written.push(t) };
  const result = await copyText(URL_TEXT, { clipboard, copyOldWay: () => assert.fail('not needed') });
  assert.equal(result, 'copied');
  assert.deepEqual(written, [URL_TEXT]);
});

test('no Clipboard API (plain http on a network address): the old way', async () => {
  for (const clipboard of [undefined, null, {}, { writeText: 'no' }]) {
    const copied = [];
    const result = await copyText(URL_TEXT, { clipboard, copyOldWay: (t) => copied.push(t) > 0 });
    assert.equal(result, 'copied');
    assert.deepEqual(copied, [URL_TEXT]);
  }
});

test('the API refuses: the old way; neither works: failed, never thrown', async () => {
  const refusing = { writeText: async () => { throw new DOMException('Document is not focused', 'NotAllowedError'); } };
  assert.equal(await copyText(URL_TEXT, { clipboard: refusing, copyOldWay: () => true }), 'copied');
  assert.equal(await copyText(URL_TEXT, { clipboard: refusing, copyOldWay: () => false }), 'failed');
  assert.equal(await copyText(URL_TEXT, { clipboard: undefined, copyOldWay: () => { throw new Error('no execCommand'); } }), 'failed');
});
