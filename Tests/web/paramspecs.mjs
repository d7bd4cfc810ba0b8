// The server's hello.paramSpecs (Sources/ForceLayout/ParameterTable.swift) as the node tests'
// fixture; not a test file itself. The server's own tests write it (Tests/fixtures/, see
// Tests/LayoutServerTests/GoldenFixturesTests.swift), and test_browser.py checks that it is what a
// running server sends (test_the_node_fixture_is_the_servers_specs).
import { readFileSync } from 'node:fs';

export const SPECS = JSON.parse(readFileSync(new URL('../fixtures/hello-paramspecs.json', import.meta.url), 'utf8'));

export const byName = (name) => SPECS.find((s) => s.name === name);
