"""The graphs `make bench-graphs` lays out: the bench's own, made at bench time from fixed seeds,
and any graph file a user names (`--graph FILE`), each reduced to its largest connected
component with nodes 0..n-1 and written as node-link JSON for `forcelayout import`, so every
tool draws exactly the same graph. numpy, scipy and networkx.

A file is read by the rules `forcelayout import` follows (Sources/ImportTool/Reading/): node-link
JSON when it starts with `{` (`nodes` with `id`s, else their positions; `links` or `edges` with
`source`/`target` naming nodes by id, else by position), else an edge list (a line per link, its
first two columns the ends, split by tabs, else commas, else spaces; `#` comments; a header such
as `source,target`; a third column is the link's `weight`). Self links and repeated links are
left out, as the importer does.
"""
import heapq
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import Delaunay, cKDTree

from graph_metrics import Graph

HEADER_NAMES = {"source", "target", "from", "to", "node1", "node2", "id1", "id2", "u", "v"}


@dataclass
class BenchGraph:
    """One graph ready to lay out: `graph` (its largest component, nodes 0..n-1), `weights`
    (one per edge, or None), where it came from (`nodes_in`, `edges_in` before the component
    was taken) and `path`, its node-link JSON file once written."""
    name: str
    title: str
    graph: Graph
    weights: object = None
    nodes_in: int = 0
    edges_in: int = 0
    path: Path = None

    @property
    def counts(self):
        """"n 9,998, m 34,012 (largest component of 10,000 nodes, 34,020 edges)"."""
        text = f"n {self.graph.n:,}, m {self.graph.m:,}"
        if (self.nodes_in, self.edges_in) != (self.graph.n, self.graph.m):
            text += f" (largest component of {self.nodes_in:,} nodes, {self.edges_in:,} edges)"
        return text


def grid(side=100):
    """side x side nodes, each linked to its right and lower neighbour."""
    index = np.arange(side * side).reshape(side, side)
    right = np.stack([index[:, :-1].ravel(), index[:, 1:].ravel()], axis=1)
    down = np.stack([index[:-1, :].ravel(), index[1:, :].ravel()], axis=1)
    return side * side, np.concatenate([right, down])


def random_geometric(n, degree=7.0, seed=1):
    """n points uniform in the unit square, linked when closer than r, r chosen for a mean
    degree of `degree` (n pi r^2 = degree, less the border's loss); pairs from a k-d tree."""
    points = np.random.default_rng(seed).random((n, 2))
    radius = math.sqrt(degree / (math.pi * n))
    return n, cKDTree(points).query_pairs(radius, output_type="ndarray")


def delaunay(n, seed=1):
    """The Delaunay triangulation of n points uniform in the unit square: a planar mesh,
    connected, about 3n edges."""
    points = np.random.default_rng(seed).random((n, 2))
    triangles = Delaunay(points).simplices
    pairs = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    return n, np.unique(np.sort(pairs, axis=1), axis=0)


def random_tree(n, seed=1):
    """A uniform random labelled tree on n nodes: a random Prüfer sequence, decoded."""
    sequence = np.random.default_rng(seed).integers(0, n, size=n - 2)
    degree = np.ones(n, dtype=np.int64)
    np.add.at(degree, sequence, 1)
    leaves = [int(node) for node in np.flatnonzero(degree == 1)]
    heapq.heapify(leaves)
    edges = []
    for node in sequence:
        leaf = heapq.heappop(leaves)
        edges.append((leaf, int(node)))
        degree[node] -= 1
        if degree[node] == 1:
            heapq.heappush(leaves, int(node))
    edges.append((heapq.heappop(leaves), heapq.heappop(leaves)))
    return n, np.array(edges, dtype=np.int64)


def from_networkx(graph, weight=None):
    """(n, edges, weights) of a networkx graph, its nodes numbered in their order."""
    number = {node: index for index, node in enumerate(graph.nodes())}
    edges = np.array([(number[u], number[v]) for u, v in graph.edges()], dtype=np.int64).reshape(-1, 2)
    weights = None
    if weight is not None:
        weights = [data.get(weight) for _, _, data in graph.edges(data=True)]
    return graph.number_of_nodes(), edges, weights


def les_miserables():
    import networkx
    return from_networkx(networkx.les_miserables_graph(), weight="weight")


def barabasi_albert():
    import networkx
    return from_networkx(networkx.barabasi_albert_graph(10000, 2, seed=1))


# name -> (title, maker returning (n, edges) or (n, edges, weights), is it the 100k graph)
BENCH_GRAPHS = {
    "lesmis": ("Les Misérables", les_miserables, False),
    "grid": ("grid 100×100", lambda: grid(100), False),
    "rgg-10k": ("random geometric 10k", lambda: random_geometric(10000, seed=1), False),
    "tree-10k": ("random tree 10k", lambda: random_tree(10000, seed=1), False),
    "ba-10k": ("Barabási–Albert 10k, m 2", barabasi_albert, False),
    "delaunay-100k": ("Delaunay mesh 100k", lambda: delaunay(100000, seed=1), True),
}


def make(name):
    """The bench graph `name` (a key of BENCH_GRAPHS), its largest component taken."""
    title, maker, _ = BENCH_GRAPHS[name]
    made = maker()
    n, edges = made[0], made[1]
    weights = made[2] if len(made) > 2 else None
    return component(name, title, n, edges, weights)


def component(name, title, n, edges, weights=None):
    """A BenchGraph of the largest connected component of (n, edges), renumbered in order.
    Self links and repeated links (either direction) are left out first."""
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    edges_in = len(edges)
    keep = edges[:, 0] != edges[:, 1]
    ordered = np.sort(edges, axis=1)
    _, first = np.unique(ordered, axis=0, return_index=True)
    once = np.zeros(len(edges), dtype=bool)
    once[first] = True
    keep &= once
    edges = edges[keep]
    if weights is not None:
        weights = [w for w, k in zip(weights, keep) if k]
    if n == 0:
        raise ValueError(f"{name}: no nodes")
    matrix = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    _, labels = connected_components(matrix, directed=False)
    largest = np.bincount(labels).argmax()
    inside = labels == largest
    renumber = np.full(n, -1, dtype=np.int64)
    renumber[inside] = np.arange(int(inside.sum()))
    kept = inside[edges[:, 0]]
    graph = Graph(int(inside.sum()), renumber[edges[kept]])
    if weights is not None:
        weights = [w for w, k in zip(weights, kept) if k]
        if all(w is None for w in weights):
            weights = None
    return BenchGraph(name, title, graph, weights, nodes_in=n, edges_in=edges_in)


def write_node_link(bench_graph, directory):
    """Writes `bench_graph` as DIRECTORY/NAME.json, node-link JSON as networkx's node_link_data
    writes it: nodes {"id": i} (no positions: every tool starts from its own), links
    {"source", "target"} and `weight` when the graph has one. Sets and returns its path."""
    nodes = [{"id": index} for index in range(bench_graph.graph.n)]
    links = []
    for index, (source, target) in enumerate(bench_graph.graph.edges.tolist()):
        link = {"source": source, "target": target}
        if bench_graph.weights is not None and isinstance(bench_graph.weights[index], (int, float)):
            link["weight"] = bench_graph.weights[index]
        links.append(link)
    document = {"directed": False, "multigraph": False, "graph": {"name": bench_graph.title},
                "nodes": nodes, "links": links}
    path = Path(directory) / f"{bench_graph.name}.json"
    path.write_text(json.dumps(document, separators=(",", ":")))
    bench_graph.path = path
    return path


def read_file(path):
    """A user's graph file (node-link JSON or an edge list, as `forcelayout import` reads it),
    its largest component as a BenchGraph named after the file."""
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("{"):
        n, edges, weights = read_node_link(json.loads(text))
    else:
        n, edges, weights = read_edge_list(text)
    if n == 0:
        raise ValueError(f"{path}: no nodes")
    name = re.sub(r"[^a-z0-9_-]+", "-", path.stem.lower()).strip("-")[:40] or "graph"
    return component(name, path.name, n, edges, weights)


def read_node_link(document):
    if not isinstance(document, dict) or not isinstance(document.get("nodes"), list):
        raise ValueError('node-link JSON needs a "nodes" array')
    index = {}
    for position, node in enumerate(document["nodes"]):
        key = node_key(node.get("id") if isinstance(node, dict) else None)
        if key is None and not (isinstance(node, dict) and "id" in node):
            key = str(position)
        if key is not None and key not in index:
            index[key] = len(index)
    links = document.get("links", document.get("edges", []))
    if not isinstance(links, list):
        raise ValueError('"links" must be an array')
    edges, weights = [], []
    for link in links:
        if not isinstance(link, dict):
            continue
        ends = [link_end(link.get(end), index, len(document["nodes"])) for end in ("source", "target")]
        if None in ends:
            continue
        edges.append(ends)
        weights.append(link.get("weight"))
    return len(index), edges, weights


def node_key(value):
    """An id as the importer keys it: a string, or a number (whole numbers without a fraction)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(float(value))
    return None


def link_end(value, index, count):
    key = node_key(value)
    if key is None:
        return None
    if key in index:
        return index[key]
    # d3 v3's examples name ends by position in `nodes`.
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer() \
            and 0 <= value < min(count, len(index)):
        return int(value)
    return None


def read_edge_list(text):
    index, edges, weights = {}, [], []
    names = []
    first = True
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = split_fields(line)
        if first and len(fields) >= 2 and fields[0].lower() in HEADER_NAMES and fields[1].lower() in HEADER_NAMES:
            names = fields
            first = False
            continue
        first = False
        if len(fields) < 2 or not fields[0] or not fields[1]:
            continue
        ends = [index.setdefault(field, len(index)) for field in fields[:2]]
        edges.append(ends)
        weight_at = names.index("weight") if "weight" in names else (2 if not names else None)
        weight = None
        if weight_at is not None and weight_at < len(fields):
            try:
                weight = float(fields[weight_at])
            except ValueError:
                weight = None
        weights.append(weight)
    if not index:
        raise ValueError("no links found: expected node-link JSON or an edge list (two columns a line)")
    return len(index), edges, weights


def split_fields(line):
    """A line's fields: split by tabs if it has any, else commas, else runs of spaces; double
    quotes group a field."""
    separator = "\t" if "\t" in line else ("," if "," in line else " ")
    fields, current, quoted = [], "", False
    for character in line:
        if character == '"':
            quoted = not quoted
        elif character == separator and not quoted:
            if separator != " " or current:
                fields.append(current.strip())
            current = ""
        else:
            current += character
    fields.append(current.strip())
    return fields
