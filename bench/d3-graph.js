#!/usr/bin/env node
// The d3-force side of `make bench`'s graph row: a graph file's nodes and links under
// forceLink + forceManyBody + forceCenter, ticked by hand; prints one JSON line.
//
//   NODE_PATH=/usr/share/nodejs node bench/d3-graph.js --graph FILE --ticks T [--seed S] [--theta X]
//   NODE_PATH=/usr/share/nodejs node bench/d3-graph.js --graph FILE --settle [--seed S] [--theta X]
//
// FILE is node-link JSON as networkx's json_graph.node_link_data writes it:
// {"nodes":[{"id":…}],"links":[{"source":id,"target":id}]} ("edges" is read too); other
// attributes (networkx's "weight") are ignored, as by `forcelayout bench --graph`.
//
// The forces are d3's defaults: forceLink().id(d => d.id) (distance 30, strength
// 1 / min(degree of either end)), forceManyBody().theta(X) (strength -30), forceCenter(0, 0).
// The start is the one of bench/d3-force.js: uniform in the square of half-side
// 20 * sqrt(N), from a seeded mulberry32, the nodes in file order.
//
// --ticks T: times T ticks from the start (per-tick median, like d3-force.js).
// --settle: ticks until d3 considers the simulation done, alpha < alphaMin (its timer stops
// there): 300 ticks with the default alphaDecay; reports how many and the seconds they took.
// Both end with linkRatio: the mean distance of all pairs (a fixed sample of 5,000 nodes
// above 5,000, the same as forcelayout's LayoutQuality.linkRatio) over the mean link length.
"use strict";

const fs = require("fs");
const { forceSimulation, forceLink, forceManyBody, forceCenter } = require("d3-force");
const { CELL_SIZE, mulberry32, median } = require("./d3-force.js");

const RATIO_SAMPLE = 5000;

function usage(message) {
  process.stderr.write(
    `d3-graph.js: ${message}\n` +
      "usage: node bench/d3-graph.js --graph FILE (--ticks T | --settle) [--seed S] [--theta X]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const options = { graph: null, ticks: null, settle: false, seed: 1, theta: 0.9 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const key = flag.replace(/^--/, "");
    if (!flag.startsWith("--") || !(key in options)) usage(`unknown argument ${flag}`);
    if (key === "settle") {
      options.settle = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) usage(`${flag} needs a value`);
    if (key === "graph") {
      options.graph = value;
      continue;
    }
    const number = Number(value);
    if (!Number.isFinite(number)) usage(`${flag} ${value} is not a number`);
    options[key] = number;
  }
  if (options.graph === null) usage("--graph is required");
  if (options.settle === (options.ticks !== null)) usage("give either --ticks or --settle");
  if (!options.settle && (!Number.isInteger(options.ticks) || options.ticks < 1)) {
    usage("--ticks must be an integer >= 1");
  }
  if (!(options.theta >= 0)) usage("--theta must be >= 0");
  return options;
}

// The file's nodes (only their ids) and links (only their ends), in file order.
function readGraph(path) {
  const data = JSON.parse(fs.readFileSync(path, "utf8"));
  const links = data.links || data.edges;
  if (!Array.isArray(data.nodes) || !Array.isArray(links)) {
    throw new Error(`${path}: no "nodes" and "links" arrays`);
  }
  return {
    nodes: data.nodes.map((node) => ({ id: node.id })),
    links: links.map((link) => ({ source: link.source, target: link.target })),
  };
}

function place(nodes, seed) {
  const random = mulberry32(seed);
  const half = CELL_SIZE * Math.sqrt(nodes.length);
  for (const node of nodes) {
    node.x = (random() * 2 - 1) * half;
    node.y = (random() * 2 - 1) * half;
  }
}

function distance(a, b) {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

// Mean distance of all pairs (of every stride-th node above RATIO_SAMPLE) over the mean link
// length; 0 without links. The links' ends are node objects once forceLink has run.
function linkRatio(nodes, links) {
  if (links.length === 0 || nodes.length < 2) return 0;
  const linked = links.reduce((sum, link) => sum + distance(link.source, link.target), 0) / links.length;
  const stride = Math.max(1, Math.floor(nodes.length / RATIO_SAMPLE));
  const xs = [], ys = [];
  for (let i = 0; i < nodes.length; i += stride) {
    xs.push(nodes[i].x);
    ys.push(nodes[i].y);
  }
  let total = 0, pairs = 0;
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      total += Math.sqrt((xs[i] - xs[j]) ** 2 + (ys[i] - ys[j]) ** 2);
      pairs += 1;
    }
  }
  return linked > 0 ? total / pairs / linked : 0;
}

function timeTicks(simulation, ticks) {
  const times = new Array(ticks);
  for (let k = 0; k < ticks; k++) {
    const start = process.hrtime.bigint();
    simulation.tick();
    times[k] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  const sorted = times.slice().sort((a, b) => a - b);
  return {
    msPerTick: median(sorted),
    msPerTickMean: times.reduce((a, b) => a + b, 0) / ticks,
    msPerTickMin: sorted[0],
    msPerTickMax: sorted[sorted.length - 1],
  };
}

// Ticks until alpha < alphaMin, as d3's own timer would run them.
function settle(simulation) {
  const start = process.hrtime.bigint();
  let ticks = 0;
  while (simulation.alpha() >= simulation.alphaMin()) {
    simulation.tick();
    ticks += 1;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { settled: true, settleTicks: ticks, settleSeconds: seconds, alpha: simulation.alpha() };
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const { nodes, links } = readGraph(options.graph);
  place(nodes, options.seed);

  const setupStart = process.hrtime.bigint();
  const simulation = forceSimulation(nodes)
    .force("link", forceLink(links).id((d) => d.id))
    .force("charge", forceManyBody().theta(options.theta))
    .force("center", forceCenter(0, 0))
    .stop(); // no timer: we tick by hand
  const setupMs = Number(process.hrtime.bigint() - setupStart) / 1e6;

  const figures = options.settle ? settle(simulation) : timeTicks(simulation, options.ticks);
  for (const node of nodes) {
    if (!Number.isFinite(node.x) || !Number.isFinite(node.y)) {
      throw new Error("a position became non-finite");
    }
  }

  const round = (value, digits = 3) => Number(value.toFixed(digits));
  const result = {
    engine: "d3-force",
    version: require("d3-force/package.json").version,
    mode: options.settle ? "settle" : "speed",
    graph: options.graph,
    cells: nodes.length,
    links: links.length,
    theta: options.theta,
    seed: options.seed,
  };
  if (!options.settle) result.ticks = options.ticks;
  for (const [key, value] of Object.entries(figures)) {
    result[key] = typeof value === "number" && !Number.isInteger(value) ? round(value, key === "alpha" ? 6 : 3) : value;
  }
  Object.assign(result, {
    linkRatio: round(linkRatio(nodes, links)),
    setupMs: round(setupMs),
    rssMB: round(process.resourceUsage().maxRSS / 1024, 1),
  });
  process.stdout.write(JSON.stringify(result) + "\n");
}

try {
  main();
} catch (error) {
  process.stderr.write(`d3-graph.js: ${error.message}\n`);
  process.exit(1);
}
