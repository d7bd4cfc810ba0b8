// node --test Tests/web/  — keyboard shortcuts of Public/keys.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyAction, targetKind } from '../../Public/keys.js';

const k = (key, mods = {}) => ({ key, ...mods });

test('keys map to actions on the page', () => {
  assert.equal(keyAction(k('+')), 'add');
  assert.equal(keyAction(k('=')), 'add');
  assert.equal(keyAction(k('-')), 'remove');
  assert.equal(keyAction(k(' ')), 'pause');
  assert.equal(keyAction(k('f')), 'fit');
  assert.equal(keyAction(k('F')), 'fit');
  assert.equal(keyAction(k('ArrowLeft')), 'prev');
  assert.equal(keyAction(k('ArrowDown')), 'prev');
  assert.equal(keyAction(k('ArrowRight')), 'next');
  assert.equal(keyAction(k('ArrowUp')), 'next');
  assert.equal(keyAction(k('x')), null);
  assert.equal(keyAction(k('toString')), null);
  assert.equal(keyAction(null), null);
});

test('not with modifiers, not while typing, not on the strip', () => {
  assert.equal(keyAction(k('f', { ctrlKey: true })), null);
  assert.equal(keyAction(k('+', { metaKey: true })), null);
  assert.equal(keyAction(k('-', { altKey: true })), null);
  for (const key of ['+', '-', ' ', 'f', 'ArrowLeft']) {
    assert.equal(keyAction(k(key), 'text'), null);
    assert.equal(keyAction(k(key), 'strip'), null);
  }
});

test('keys a focused control uses stay with it', () => {
  assert.equal(keyAction(k('ArrowLeft'), 'control'), null);
  assert.equal(keyAction(k(' '), 'control'), null);
  assert.equal(keyAction(k('+'), 'control'), 'add');
  assert.equal(keyAction(k(' '), 'button'), null);
  assert.equal(keyAction(k('ArrowRight'), 'button'), 'next');
  assert.equal(keyAction(k('f'), 'button'), 'fit');
});

test('targets are classified by tag, type and id', () => {
  assert.equal(targetKind({ tagName: 'INPUT', type: 'number' }), 'text');
  assert.equal(targetKind({ tagName: 'input', type: 'text' }), 'text');
  assert.equal(targetKind({ tagName: 'INPUT', type: 'range' }), 'control');
  assert.equal(targetKind({ tagName: 'INPUT', type: 'checkbox' }), 'control');
  assert.equal(targetKind({ tagName: 'TEXTAREA' }), 'text');
  assert.equal(targetKind({ tagName: 'DIV', isContentEditable: true }), 'text');
  assert.equal(targetKind({ tagName: 'DIV', id: 'strip' }), 'strip');
  assert.equal(targetKind({ tagName: 'BUTTON', type: 'button' }), 'button');
  assert.equal(targetKind({ tagName: 'BODY' }), 'other');
  assert.equal(targetKind({}), 'other');
  assert.equal(targetKind(), 'other');
});
