// node --test Tests/web/  — the page reads every graph file of Tests/fixtures/graphs/ as
// `forcelayout import` does: NAME.expected.json is what the server's reader made of NAME
// (GoldenFixturesTests.swift writes it), and graphfile.js must make the same of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { readGraph } from '../../Public/graphfile.js';

const folder = new URL('../fixtures/graphs/', import.meta.url);
const inputs = readdirSync(folder).filter((name) => !name.endsWith('.expected.json')).sort();

test('there are graph fixtures to compare', () => assert.ok(inputs.length >= 3, inputs.join(', ')));

for (const name of inputs) {
  test(`${name} reads as the server reads it`, () => {
    const expected = JSON.parse(readFileSync(new URL(`${name}.expected.json`, folder), 'utf8'));
    const g = readGraph(readFileSync(new URL(name, folder), 'utf8'));
    assert.deepEqual({
      keys: g.nodes.map((n) => n.key),
      labels: g.nodes.map((n) => n.cell.label),
      links: g.edges.map((e) => [e.source, e.target, e.attrs ?? null, e.strength ?? null]),
      notes: g.notes,
    }, expected);
  });
}
