// node --test Tests/web/  — parameters from the server's specs: which specs the page uses
// and values clamped, stepped and parsed by spec (Public/params.js), and the controls built
// from them (Public/controlmodel.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clampToSpec, lowest, normalizeSpecs, parseValue, sameSpecs, snapToSpec } from '../../Public/params.js';
import { controlModel } from '../../Public/controlmodel.js';
import { SPECS } from './paramspecs.mjs';

const spec = (name) => normalizeSpecs(SPECS).find((s) => s.name === name);

test('the server\'s specs are kept whole and in order', () => {
  const specs = normalizeSpecs(SPECS);
  assert.deepEqual(specs.map((s) => s.name), SPECS.map((s) => s.name));
  assert.deepEqual(spec('stiffness'), { ...SPECS[0] });
  assert.deepEqual(spec('collide'), { ...SPECS[6] });
  assert.ok(sameSpecs(specs, normalizeSpecs(structuredClone(SPECS))));
  assert.ok(!sameSpecs(specs, normalizeSpecs(SPECS.map((s) => (s.name === 'charge' ? { ...s, max: 2000 } : s)))));
});

test('specs the page cannot use are left out; an unknown control falls back', () => {
  const specs = normalizeSpecs([
    null, 7, 'charge', [], {},
    { name: 'gravity', kind: 'vector', label: 'Gravity', control: 'joystick' }, // a kind from the future
    { name: 'colour', kind: 'number', label: 'Colour', control: 'slider' }, // no range
    { name: 'bad', kind: 'number', min: 5, max: 1, control: 'slider' }, // empty range
    { name: 'nan', kind: 'number', min: 0, max: Infinity, control: 'slider' },
    { name: '1x', kind: 'bool' }, { name: 'a"]', kind: 'bool' }, // names that are not identifiers
    SPECS[1], { ...SPECS[1], label: 'Charge again' }, // a name twice: the first counts
    { name: 'wiggle', kind: 'number', min: 0, max: 1, control: 'dial' }, // unknown control: a number box
    { name: 'loud', kind: 'bool', control: 'slider' }, // a bool is a toggle
    { name: 'bare', kind: 'number', min: 0, max: 10 }, // no label, step or description
  ]);
  assert.deepEqual(specs.map((s) => [s.name, s.control]),
    [['charge', 'slider'], ['wiggle', 'field'], ['loud', 'toggle'], ['bare', 'field']]);
  assert.equal(specs[0].label, 'Charge');
  const bare = specs[3];
  assert.equal(bare.label, 'bare');
  assert.equal(bare.description, '');
  assert.equal(bare.step, null);
  assert.deepEqual(normalizeSpecs(undefined), []);
  assert.deepEqual(normalizeSpecs({ charge: SPECS[1] }), []);
});

test('values are clamped into range; an exclusive minimum is never reached', () => {
  assert.equal(clampToSpec(spec('charge'), 2000), 1000);
  assert.equal(clampToSpec(spec('charge'), -1), 0);
  assert.equal(lowest(spec('stiffness')), 0.001); // (0, 1]: the first stop is min + step
  assert.equal(clampToSpec(spec('stiffness'), 0), 0.001);
  assert.equal(clampToSpec(spec('stiffness'), -3), 0.001);
  assert.equal(clampToSpec(spec('stiffness'), 0.0005), 0.0005); // in range: any value is allowed
  const noStep = normalizeSpecs([{ name: 'k', kind: 'number', min: 2, max: 4, minExclusive: true }])[0];
  assert.equal(lowest(noStep), 2.002);
  assert.equal(clampToSpec(noStep, 2), 2.002);
});

test('slider values snap to the stops without float noise', () => {
  assert.equal(snapToSpec(spec('theta'), 0.93), 0.95);
  assert.equal(snapToSpec(spec('theta'), 0.3), 0.3);
  assert.equal(snapToSpec(spec('stiffness'), 0.02), 0.02);
  assert.equal(snapToSpec(spec('stiffness'), 0.0204), 0.02);
  assert.equal(snapToSpec(spec('stiffness'), 0), 0.001);
  assert.equal(snapToSpec(spec('charge'), 12.3), 12.5);
  assert.equal(snapToSpec(spec('cellSize'), 250), 200);
  for (let k = 0; k <= 40; k++) assert.equal(String(snapToSpec(spec('theta'), k * 0.05)).length <= 4, true, String(k));
  // a last stop beyond max is not taken: (0, 1] in steps of 0.3 from 0.3 ends at 0.9
  const odd = normalizeSpecs([{ name: 'k', kind: 'number', min: 0, max: 1, minExclusive: true, step: 0.3 }])[0];
  assert.equal(snapToSpec(odd, 1), 0.9);
  const free = normalizeSpecs([{ name: 'k', kind: 'number', min: 0, max: 1 }])[0];
  assert.equal(snapToSpec(free, 0.123456), 0.123456);
});

test('typed values are parsed by spec', () => {
  assert.equal(parseValue(spec('charge'), '20'), 20);
  assert.equal(parseValue(spec('charge'), ' 20 '), 20);
  assert.equal(parseValue(spec('charge'), '2000'), 1000);
  assert.equal(parseValue(spec('charge'), '-1'), 0);
  assert.equal(parseValue(spec('stiffness'), '0'), 0.001);
  assert.equal(parseValue(spec('tickRate'), '0.5'), 1);
  assert.equal(parseValue(spec('threshold'), '1e9'), 1e6);
  assert.equal(parseValue(spec('theta'), 'abc'), undefined);
  assert.equal(parseValue(spec('theta'), ''), undefined); // emptied: nothing to send
  assert.equal(parseValue(spec('theta'), '  '), undefined);
  assert.equal(parseValue(spec('theta'), 'Infinity'), undefined);
  assert.equal(parseValue(spec('collide'), true), true);
  assert.equal(parseValue(spec('paused'), false), false);
  assert.equal(parseValue(undefined, '1'), undefined);
  assert.equal(parseValue({ name: 'v', kind: 'vector' }, '1'), undefined);
});

test('controls from the specs: sliders, then number fields, then toggles, as the panel shows them', () => {
  const model = controlModel(SPECS);
  assert.deepEqual(model.map((c) => [c.name, c.control, c.label]), [
    ['stiffness', 'slider', 'Stiffness'], ['charge', 'slider', 'Charge'], ['cellSize', 'slider', 'Cell size'],
    ['tickRate', 'slider', 'Frames/s'], ['theta', 'slider', 'Theta'], ['edgeLength', 'slider', 'Link length'],
    ['linkStrength', 'slider', 'Link strength'], ['threshold', 'field', 'Threshold'], ['model', 'menu', 'Model'], ['collide', 'toggle', 'Collide'], ['paused', 'toggle', 'Paused'],
  ]);
  const stiffness = model[0];
  assert.deepEqual(stiffness.range, { min: 0.001, max: 1, step: 0.001 });
  assert.deepEqual(stiffness.box, { min: 0.001, max: 1, step: 'any', label: 'Stiffness value' });
  assert.equal(stiffness.description, SPECS[0].description);
  assert.deepEqual(model[1].range, { min: 0, max: 1000, step: 0.5 });
  const threshold = model.find((c) => c.name === 'threshold');
  assert.equal(threshold.range, undefined);
  assert.deepEqual(threshold.box, { min: 0, max: 1e6, step: 'any' });
  const collide = model.find((c) => c.name === 'collide');
  assert.equal(collide.range, undefined);
  assert.equal(collide.box, undefined);
  assert.equal(collide.description, SPECS[6].description);
  const menu = model.find((c) => c.name === 'model');
  assert.deepEqual(menu.options, ['auto', 'cells', 'graph']);
  assert.equal(menu.range, undefined);
  assert.equal(menu.box, undefined);
  assert.equal(menu.description, SPECS.find((s) => s.name === 'model').description);
  assert.deepEqual(controlModel([]), []);
  assert.deepEqual(controlModel(undefined), []);
});

test('a parameter new in the server\'s table appears as a control; unknown kinds do not', () => {
  const specs = [
    ...SPECS.slice(0, 6),
    { name: 'gravity', kind: 'number', label: 'Gravity', description: 'Pull towards the floor.', default: 0, min: -10, max: 10, step: 0.1, control: 'slider' },
    { name: 'maxSpeed', kind: 'number', label: 'Max speed', description: 'Fastest a cell moves.', default: 100, min: 0, minExclusive: true, max: 1e9, step: 1, control: 'field' },
    ...SPECS.slice(6),
    { name: 'trails', kind: 'bool', label: 'Trails', description: 'Draw where cells were.', default: false, control: 'toggle' },
    { name: 'tint', kind: 'colour', label: 'Tint', default: '#fff', control: 'picker' },
  ];
  const model = controlModel(specs);
  assert.deepEqual(model.map((c) => c.name), [
    'stiffness', 'charge', 'cellSize', 'tickRate', 'theta', 'gravity', 'edgeLength', 'linkStrength', 'threshold', 'maxSpeed', 'model',
    'collide', 'paused', 'trails',
  ]);
  const gravity = model.find((c) => c.name === 'gravity');
  assert.deepEqual(gravity.range, { min: -10, max: 10, step: 0.1 });
  assert.equal(gravity.box.label, 'Gravity value');
  assert.equal(gravity.description, 'Pull towards the floor.');
  assert.deepEqual(model.find((c) => c.name === 'maxSpeed').box, { min: 1, max: 1e9, step: 'any' });
  assert.equal(model.find((c) => c.name === 'trails').label, 'Trails');
  assert.equal(parseValue(gravity.spec, '-20'), -10);
});

test('a choice: its options kept in order, once; a menu of them; only an option is sent', () => {
  const model = spec('model');
  assert.deepEqual(model, { ...SPECS.find((s) => s.name === 'model') });
  assert.equal(parseValue(model, 'graph'), 'graph');
  assert.equal(parseValue(model, 'auto'), 'auto');
  for (const bad of ['Graph', '', ' graph', 'spiral', true, 1, null, undefined, ['graph']]) {
    assert.equal(parseValue(model, bad), undefined, String(bad));
  }
  const specs = normalizeSpecs([
    { name: 'shape', kind: 'choice', label: 'Shape', options: ['disc', 7, '', 'square', 'disc', null], default: 'square', control: 'menu' },
    { name: 'none', kind: 'choice', options: [] }, // nothing to choose: left out
    { name: 'junk', kind: 'choice', options: [1, '', null] }, // no usable option: left out
    { name: 'loose', kind: 'choice', options: 'ab' }, // not a list: left out
    { name: 'mode', kind: 'choice', options: ['a', 'b'], default: 'c', control: 'slider' }, // a choice is a menu
  ]);
  assert.deepEqual(specs.map((s) => [s.name, s.control, s.options, s.default]),
    [['shape', 'menu', ['disc', 'square'], 'square'], ['mode', 'menu', ['a', 'b'], undefined]]);
  assert.deepEqual(controlModel(specs).map((c) => [c.name, c.control, c.options]),
    [['shape', 'menu', ['disc', 'square']], ['mode', 'menu', ['a', 'b']]]);
  // the menu's options are its own: changing them leaves the spec alone
  const [menu] = controlModel(specs);
  menu.options.push('x');
  assert.deepEqual(menu.spec.options, ['disc', 'square']);
  assert.ok(!sameSpecs(specs, normalizeSpecs([{ ...specs[0], options: ['square', 'disc'] }, specs[1]])));
});

test('a spec of one physics keeps it; a spec of both has none', () => {
  const specs = normalizeSpecs([
    { name: 'edgeLength', kind: 'number', min: 1, max: 1000, step: 1, control: 'slider', physics: 'graph' },
    { name: 'theta', kind: 'number', min: 0, max: 2, step: 0.05, control: 'slider' },
    { name: 'odd', kind: 'number', min: 0, max: 2, physics: 7 },
  ]);
  assert.deepEqual(specs.map((s) => s.physics), ['graph', undefined, undefined]);
});
