// node --test Tests/web/  — keyboard shortcuts of Public/keys.js
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyAction, targetKind } from '../../Public/keys.js';

const k = (key, mods = {}) => ({ key, ...mods });

test('keys map to actions on the page', () => {
  assert.equal(keyAction(k('+')), 'zoomIn');
  assert.equal(keyAction(k('=')), 'zoomIn');
  assert.equal(keyAction(k('-')), 'zoomOut', 'people expect - to zoom out');
  assert.equal(keyAction(k('a')), 'add');
  assert.equal(keyAction(k(' ')), 'pause');
  assert.equal(keyAction(k('f')), 'fit');
  assert.equal(keyAction(k('F')), 'fitSelection');
  assert.equal(keyAction(k('/')), 'find');
  assert.equal(keyAction(k('k', { ctrlKey: true })), 'find');
  assert.equal(keyAction(k('k', { metaKey: true })), 'find');
  assert.equal(keyAction(k('k', { ctrlKey: true }), 'text'), 'find', 'Ctrl+K finds from a field too');
  assert.equal(keyAction(k('Escape')), 'clearFocus');
  assert.equal(keyAction(k('p')), 'point');
  assert.equal(keyAction(k('ArrowLeft')), 'prev');
  assert.equal(keyAction(k('ArrowDown')), 'prev');
  assert.equal(keyAction(k('ArrowRight')), 'next');
  assert.equal(keyAction(k('ArrowUp')), 'next');
  assert.equal(keyAction(k('h')), 'history');
  assert.equal(keyAction(k('r')), 'record');
  assert.equal(keyAction(k('z', { ctrlKey: true })), 'undo');
  assert.equal(keyAction(k('z', { metaKey: true })), 'undo');
  assert.equal(keyAction(k('Z', { ctrlKey: true })), 'undo', 'caps lock');
  assert.equal(keyAction(k('z', { ctrlKey: true, shiftKey: true })), null, 'redo elsewhere');
  assert.equal(keyAction(k('z', { ctrlKey: true, altKey: true })), null);
  assert.equal(keyAction(k('z', { ctrlKey: true }), 'text'), null, 'a field undoes its own typing');
  assert.equal(keyAction(k('z', { ctrlKey: true }), 'control'), 'undo');
  assert.equal(keyAction(k('z')), null, 'z alone is nothing');
  assert.equal(keyAction(k('x')), null);
  assert.equal(keyAction(k('toString')), null);
  assert.equal(keyAction(null), null);
});

test('no key removes cells', () => {
  for (const key of ['-', '_', 'Delete', 'Backspace', 'r', 'c', 'x']) {
    assert.ok(!['remove', 'clear'].includes(keyAction(k(key))), key);
  }
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
  assert.equal(keyAction(k('+'), 'control'), 'zoomIn');
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
  assert.equal(targetKind({ tagName: 'DIV', id: 'timeline-track', role: 'slider' }), 'control', 'the timeline keeps its arrows');
  assert.equal(targetKind({ tagName: 'BUTTON', type: 'button' }), 'button');
  assert.equal(targetKind({ tagName: 'BODY' }), 'other');
  assert.equal(targetKind({}), 'other');
  assert.equal(targetKind(), 'other');
});
