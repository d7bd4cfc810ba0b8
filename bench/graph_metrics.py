"""How good a drawing of a graph is: the three figures `make bench-graphs` (bench/graph_quality.py)
computes, the same code for every tool's drawing. numpy and scipy only.

A graph is `Graph(n, edges)`: nodes 0..n-1, `edges` an (m, 2) integer array of undirected,
distinct, non-loop pairs, connected (the bench keeps the largest component). A drawing is an
(n, 2) float array of positions, row i for node i.

- `stress`: how well drawn distances follow graph distances (lower is better; 0 for a drawing
  whose distances are exactly proportional to the graph's).
- `neighbourhood_preservation`: how many of each node's graph neighbours are its nearest
  neighbours in the drawing (higher is better; 1 when they all are).
- `edge_length_cv`: how uniform the drawn edge lengths are (lower is more uniform).

Each costs O(n + m) or O((n + m) log n): 50 breadth-first searches for stress, one k-d tree
for neighbourhoods, so measuring a 100k-node drawing takes about a second, not the bench's time.
"""
from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path
from scipy.spatial import cKDTree

PIVOTS = 50
PIVOT_SEED = 23


@dataclass
class Graph:
    """An undirected graph on nodes 0..n-1; `edges` (m, 2) int64, each pair once, no loops."""
    n: int
    edges: np.ndarray
    _adjacency: object = field(default=None, repr=False, compare=False)

    @property
    def m(self):
        return len(self.edges)

    def adjacency(self):
        """The symmetric n x n adjacency matrix (CSR, entries 1), made once."""
        if self._adjacency is None:
            ones = np.ones(2 * self.m, dtype=np.int8)
            rows = np.concatenate([self.edges[:, 0], self.edges[:, 1]])
            cols = np.concatenate([self.edges[:, 1], self.edges[:, 0]])
            self._adjacency = coo_matrix((ones, (rows, cols)), shape=(self.n, self.n)).tocsr()
            self._adjacency.sort_indices()
        return self._adjacency

    def degrees(self):
        return np.diff(self.adjacency().indptr)


def pivots(graph, count=PIVOTS, seed=PIVOT_SEED):
    """`count` distinct nodes (all of them when the graph has fewer), a seeded random choice:
    every tool's drawing of a graph is measured from the same pivots."""
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(graph.n, size=min(count, graph.n), replace=False))


def pivot_distances(graph, sources):
    """Breadth-first (hop) distances from each of `sources` to every node: (len(sources), n)."""
    return shortest_path(graph.adjacency(), method="D", directed=False, unweighted=True, indices=sources)


def stress(graph, positions, sources=None, distances=None):
    """Normalised stress from pivots: for the pairs (p, j), p one of `sources` (default
    `pivots(graph)`) and j any other node, with graph distance d (hops) and drawn distance x,
    weight w = d^-2, the drawing first scaled by the factor s that minimises the sum
    (closed form: s = sum w d x / sum w x^2), the mean of w (s x - d)^2 = (s x / d - 1)^2.
    A drawing that is a scaled copy of the graph's metric scores 0; one with every node on one
    spot scores 1. `distances` may pass pivot_distances(graph, sources) already computed.
    Returns (stress, s)."""
    if sources is None:
        sources = pivots(graph)
    if distances is None:
        distances = pivot_distances(graph, sources)
    positions = np.asarray(positions, dtype=float)
    drawn = np.linalg.norm(positions[None, :, :] - positions[sources][:, None, :], axis=2)
    keep = np.isfinite(distances) & (distances > 0)
    d, x = distances[keep], drawn[keep]
    if d.size == 0:
        return 0.0, 1.0
    w = d ** -2.0
    wxx = float(np.sum(w * x * x))
    scale = float(np.sum(w * d * x)) / wxx if wxx > 0 else 0.0
    return float(np.mean(w * (scale * x - d) ** 2)), scale


def neighbourhood_preservation(graph, positions):
    """Mean over nodes of the Jaccard overlap |N_G ∩ N_D| / |N_G ∪ N_D| between a node's graph
    neighbours N_G and its deg(node) nearest other nodes in the drawing N_D (a k-d tree; ties
    among equidistant nodes are broken by the tree). 1 when every node's nearest nodes are
    exactly its neighbours. Nodes of degree 0 are left out."""
    positions = np.asarray(positions, dtype=float)
    adjacency = graph.adjacency()
    degrees = np.diff(adjacency.indptr)
    tree = cKDTree(positions)
    # Keys u * n + v of every (directed) graph edge, sorted, to look drawn pairs up in.
    rows = np.repeat(np.arange(graph.n, dtype=np.int64), degrees)
    edge_keys = rows * graph.n + adjacency.indices.astype(np.int64)
    total, counted = 0.0, 0
    for k in np.unique(degrees):
        if k == 0:
            continue
        nodes = np.flatnonzero(degrees == k)
        ask = int(min(k + 1, graph.n))
        _, found = tree.query(positions[nodes], k=ask)
        found = np.asarray(found).reshape(len(nodes), ask)
        # Each node's k nearest others: drop the node itself where the tree found it, else
        # (several nodes on one spot) the farthest of the k + 1.
        itself = found == nodes[:, None]
        drop = np.where(itself.any(axis=1), itself.argmax(axis=1), ask - 1)
        keep = np.ones_like(found, dtype=bool)
        keep[np.arange(len(nodes)), drop] = False
        nearest = found[keep].reshape(len(nodes), ask - 1)
        keys = nodes[:, None].astype(np.int64) * graph.n + nearest.astype(np.int64)
        place = np.searchsorted(edge_keys, keys)
        place[place >= len(edge_keys)] = len(edge_keys) - 1
        shared = (edge_keys[place] == keys).sum(axis=1)
        size = ask - 1
        total += float(np.sum(shared / (k + size - shared)))
        counted += len(nodes)
    return total / counted if counted else 1.0


def edge_lengths(graph, positions):
    positions = np.asarray(positions, dtype=float)
    return np.linalg.norm(positions[graph.edges[:, 0]] - positions[graph.edges[:, 1]], axis=1)


def edge_length_cv(graph, positions):
    """Coefficient of variation (standard deviation / mean) of the drawn edge lengths: 0 when
    every edge has the same length; scale-free."""
    lengths = edge_lengths(graph, positions)
    mean = float(np.mean(lengths)) if len(lengths) else 0.0
    return float(np.std(lengths)) / mean if mean > 0 else float("nan")


def measure(graph, positions, sources=None, distances=None):
    """The three figures of one drawing: {"stress", "scale", "np", "edgeCV"}. `sources` and
    `distances` (pivots and their BFS distances) may be passed so several drawings of one graph
    share them."""
    positions = np.asarray(positions, dtype=float)
    if positions.shape != (graph.n, 2) or not np.all(np.isfinite(positions)):
        raise ValueError(f"a drawing must be {graph.n} finite (x, y) positions")
    value, scale = stress(graph, positions, sources, distances)
    return {"stress": value, "scale": scale,
            "np": neighbourhood_preservation(graph, positions),
            "edgeCV": edge_length_cv(graph, positions)}
