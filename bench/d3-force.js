#!/usr/bin/env node
// The d3-force side of `make bench`: N nodes, forceManyBody + forceCenter, T manual ticks,
// each tick timed; prints one JSON line.
//
//   NODE_PATH=/usr/share/nodejs node bench/d3-force.js --cells N --ticks T [--seed S] [--theta X]
//
// d3-force is Debian's node-d3-force (1.2.1, a UMD bundle, so plain `require` works once
// NODE_PATH points at /usr/share/nodejs). No npm.
//
// Start distribution, the same as forcelayout's seeded start (Spawn.random into an empty
// layout): uniform in the square centred on (0, 0) with half-side cellSize * sqrt(N), i.e.
// side 2 * 20 * sqrt(N) with the default cellSize 20. The positions come from a seeded
// mulberry32, so they have the same distribution as ours but are not the same points
// (our engine draws from SplitMix64). d3's own jiggle (only for exactly coincident
// nodes) uses Math.random, which is fine for timing.
"use strict";

const { forceSimulation, forceManyBody, forceCenter } = require("d3-force");

const CELL_SIZE = 20;

function usage(message) {
  process.stderr.write(
    `d3-force.js: ${message}\n` +
      "usage: node bench/d3-force.js --cells N --ticks T [--seed S] [--theta X]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const options = { cells: null, ticks: null, seed: 1, theta: 0.9 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const key = flag.replace(/^--/, "");
    if (!flag.startsWith("--") || !(key in options)) usage(`unknown argument ${flag}`);
    const value = argv[++i];
    if (value === undefined) usage(`${flag} needs a value`);
    const number = Number(value);
    if (!Number.isFinite(number)) usage(`${flag} ${value} is not a number`);
    options[key] = number;
  }
  if (options.cells === null || options.ticks === null) usage("--cells and --ticks are required");
  if (!Number.isInteger(options.cells) || options.cells < 1) usage("--cells must be an integer >= 1");
  if (!Number.isInteger(options.ticks) || options.ticks < 1) usage("--ticks must be an integer >= 1");
  if (!(options.theta >= 0)) usage("--theta must be >= 0");
  return options;
}

// mulberry32: a tiny seeded 32-bit generator; returns floats in [0, 1).
function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

function main() {
  const { cells, ticks, seed, theta } = parseArgs(process.argv.slice(2));
  const random = mulberry32(seed);
  const half = CELL_SIZE * Math.sqrt(cells);
  const nodes = new Array(cells);
  for (let i = 0; i < cells; i++) {
    nodes[i] = { x: (random() * 2 - 1) * half, y: (random() * 2 - 1) * half };
  }

  const setupStart = process.hrtime.bigint();
  const simulation = forceSimulation(nodes)
    .force("charge", forceManyBody().theta(theta))
    .force("center", forceCenter(0, 0))
    .stop(); // no timer: we tick by hand
  const setupMs = Number(process.hrtime.bigint() - setupStart) / 1e6;

  const times = new Array(ticks);
  for (let k = 0; k < ticks; k++) {
    const start = process.hrtime.bigint();
    simulation.tick();
    times[k] = Number(process.hrtime.bigint() - start) / 1e6;
  }

  for (const node of nodes) {
    if (!Number.isFinite(node.x) || !Number.isFinite(node.y)) {
      process.stderr.write("d3-force.js: a position became non-finite\n");
      process.exit(1);
    }
  }

  const sorted = times.slice().sort((a, b) => a - b);
  const round = (value, digits = 3) => Number(value.toFixed(digits));
  const result = {
    engine: "d3-force",
    version: require("d3-force/package.json").version,
    cells,
    theta,
    collide: false,
    ticks,
    seed,
    msPerTick: round(median(sorted)),
    msPerTickMean: round(times.reduce((a, b) => a + b, 0) / ticks),
    msPerTickMin: round(sorted[0]),
    msPerTickMax: round(sorted[sorted.length - 1]),
    setupMs: round(setupMs),
    // Peak resident set size of this process (getrusage ru_maxrss), like ours.
    rssMB: round(process.resourceUsage().maxRSS / 1024, 1),
  };
  process.stdout.write(JSON.stringify(result) + "\n");
}

// bench/d3-graph.js shares the generator, the median and the cell size.
module.exports = { CELL_SIZE, mulberry32, median };

if (require.main === module) main();
