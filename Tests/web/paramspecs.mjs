// The server's hello.paramSpecs (Sources/ForceLayout/ParameterTable.swift) as the node tests'
// fixture; not a test file itself. test_browser.py checks the page against the real server,
// and that this list is what the server sends (test_the_node_fixture_is_the_servers_specs).
export const SPECS = [
  { name: 'stiffness', kind: 'number', label: 'Stiffness', description: 'Hooke constant of the spring that ties every cell to the center (0, 0).', default: 0.02, min: 0, minExclusive: true, max: 1, step: 0.001, control: 'slider', physics: 'cells' },
  { name: 'charge', kind: 'number', label: 'Charge', description: 'Equal made-up charge of every cell; two cells repel with charge³ / r².', default: 10, min: 0, minExclusive: false, max: 1000, step: 0.5, control: 'slider', physics: 'cells' },
  { name: 'cellSize', kind: 'number', label: 'Cell size', description: 'Drawn diameter of a cell, in world units.', default: 20, min: 1, minExclusive: false, max: 200, step: 1, control: 'slider' },
  { name: 'threshold', kind: 'number', label: 'Threshold', description: 'The layout settles once no cell moves this far or more in a step.', default: 0.3, min: 0, minExclusive: false, max: 1000000, step: 0.01, control: 'field' },
  { name: 'tickRate', kind: 'number', label: 'Frames/s', description: 'Frames per second while the layout moves; between two, it steps as often as the server allows.', default: 20, min: 1, minExclusive: false, max: 120, step: 1, control: 'slider' },
  { name: 'theta', kind: 'number', label: 'Theta', description: 'Barnes-Hut opening angle: 0 is the exact pair sum; larger is faster and coarser.', default: 0.9, min: 0, minExclusive: false, max: 2, step: 0.05, control: 'slider' },
  { name: 'collide', kind: 'bool', label: 'Collide', description: 'Cells of cellSize never overlap: each step ends by pushing overlapping pairs apart.', default: false, control: 'toggle', physics: 'cells' },
  { name: 'paused', kind: 'bool', label: 'Paused', description: 'Stops stepping; the layout stays as it is until resumed.', default: false, control: 'toggle' },
  { name: 'model', kind: 'choice', label: 'Model', description: "auto: the graph model when the room has links, else the cells model; cells: the article's center spring and charges; graph: sfdp's spring-electrical model, laid out multilevel.", default: 'auto', options: ['auto', 'cells', 'graph'], control: 'menu' },
  { name: 'edgeLength', kind: 'number', label: 'Edge length', description: "Graph model: the natural length of a link (sfdp's K); linked cells settle about this far apart.", default: 30, min: 1, minExclusive: false, max: 1000, step: 1, control: 'slider', physics: 'graph' },
];

export const byName = (name) => SPECS.find((s) => s.name === name);
