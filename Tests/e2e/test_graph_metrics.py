"""The measuring code of `make bench-graphs` (bench/graph_metrics.py, bench/graph_sets.py) on tiny
graphs whose answers are known, so a figure the bench prints is a figure of the drawing, not
of a mistake in the ruler. No server; numpy and scipy only; well under a second."""
import math
import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))

from graph_metrics import Graph, edge_length_cv, measure, neighbourhood_preservation, pivots, stress  # noqa: E402
from graph_sets import component, grid, random_tree, read_edge_list, read_node_link  # noqa: E402


def path_graph(n):
    return Graph(n, np.array([(i, i + 1) for i in range(n - 1)], dtype=np.int64))


def straight(n, spacing=1.0):
    return np.stack([np.arange(n) * spacing, np.zeros(n)], axis=1)


def test_a_path_drawn_straight_is_perfect_at_any_scale():
    graph = path_graph(30)
    for spacing in (1.0, 7.5, 0.01):
        figures = measure(graph, straight(30, spacing))
        assert figures["stress"] == pytest.approx(0, abs=1e-12)
        assert figures["scale"] == pytest.approx(1 / spacing)
        assert figures["np"] == 1.0
        assert figures["edgeCV"] == pytest.approx(0, abs=1e-12)


def test_a_shuffled_path_is_worse_on_every_figure():
    graph = path_graph(30)
    shuffled = straight(30)[np.random.default_rng(3).permutation(30)]
    good, bad = measure(graph, straight(30)), measure(graph, shuffled)
    assert bad["stress"] > good["stress"] + 0.1
    assert bad["np"] < 0.5
    assert bad["edgeCV"] > 0.3


def test_stress_is_one_for_a_drawing_on_one_spot_and_its_formula_holds():
    graph = path_graph(5)
    assert stress(graph, np.zeros((5, 2)))[0] == pytest.approx(1.0)
    # Pivots: every node. Pairs at graph distance d drawn at distance x (a bent path).
    drawing = np.array([[0, 0], [1, 0], [1, 1], [2, 1], [4, 1]], dtype=float)
    sources = np.arange(5)
    d = np.abs(sources[:, None] - sources[None, :]).astype(float)
    x = np.linalg.norm(drawing[:, None] - drawing[None, :], axis=2)
    off = d > 0
    w = d[off] ** -2.0
    s = np.sum(w * d[off] * x[off]) / np.sum(w * x[off] ** 2)
    expected = np.mean(w * (s * x[off] - d[off]) ** 2)
    value, scale = stress(graph, drawing, sources)
    assert scale == pytest.approx(s)
    assert value == pytest.approx(expected)
    assert 0 < value < 1


def test_a_grid_drawn_as_a_grid_keeps_every_neighbourhood_and_a_scrambled_one_does_not():
    n, edges = grid(6)
    graph = Graph(n, edges)
    drawing = np.array([(i % 6, i // 6) for i in range(n)], dtype=float)
    assert neighbourhood_preservation(graph, drawing) == 1.0
    assert edge_length_cv(graph, drawing) == pytest.approx(0, abs=1e-12)
    scrambled = drawing[np.random.default_rng(1).permutation(n)]
    assert neighbourhood_preservation(graph, scrambled) < 0.3
    assert measure(graph, scrambled)["stress"] > measure(graph, drawing)["stress"]


def test_neighbourhood_preservation_counts_the_overlap_of_each_node():
    # A star: the centre's 3 nearest are its 3 leaves (1); each leaf's nearest is the centre
    # only when the leaves are farther from each other than from it.
    graph = Graph(4, np.array([(0, 1), (0, 2), (0, 3)], dtype=np.int64))
    star = np.array([[0, 0], [1, 0], [-1, 0], [0, 1]], dtype=float)
    assert neighbourhood_preservation(graph, star) == 1.0
    # Leaf 1 moved next to leaf 2: leaf 1's nearest is 2 and leaf 2's nearest is 1 (Jaccard 0),
    # the centre still has its three: (1 + 0 + 0 + 1) / 4.
    bent = np.array([[0, 0], [-1.1, 0.05], [-1, 0], [0, 1]], dtype=float)
    assert neighbourhood_preservation(graph, bent) == pytest.approx(0.5)


def test_pivots_are_seeded_and_distinct():
    graph = path_graph(200)
    first, second = pivots(graph), pivots(graph)
    assert list(first) == list(second)
    assert len(set(first.tolist())) == 50
    assert len(pivots(path_graph(10))) == 10


def test_a_drawing_must_be_finite_and_complete():
    graph = path_graph(4)
    with pytest.raises(ValueError):
        measure(graph, np.zeros((3, 2)))
    broken = straight(4)
    broken[2, 0] = math.nan
    with pytest.raises(ValueError):
        measure(graph, broken)


def test_the_largest_component_is_kept_and_renumbered_without_loops_or_repeats():
    # 0-1-2 and 3-4 and 5 alone; a self link and a repeated link (reversed) left out.
    kept = component("t", "t", 6, [(0, 1), (1, 2), (2, 1), (3, 4), (2, 2)], weights=[1, 2, 3, 4, 5])
    assert (kept.graph.n, kept.graph.m) == (3, 2)
    assert sorted(map(tuple, kept.graph.edges.tolist())) == [(0, 1), (1, 2)]
    assert kept.weights == [1, 2]
    assert (kept.nodes_in, kept.edges_in) == (6, 5)


def test_a_random_tree_is_a_tree():
    n, edges = random_tree(500, seed=4)
    tree = component("tree", "tree", n, edges)
    assert (tree.graph.n, tree.graph.m) == (500, 499)


def test_graph_files_are_read_as_forcelayout_import_reads_them():
    n, edges, weights = read_node_link({"nodes": [{"id": "a"}, {"id": "b"}, {"id": 7}],
                                        "links": [{"source": "a", "target": 7, "weight": 2},
                                                  {"source": 1, "target": 0}]})
    assert n == 3 and edges == [[0, 2], [1, 0]] and weights == [2, None]
    n, edges, weights = read_edge_list("# comment\nsource,target,weight\nx,y,1.5\ny,z,\n")
    assert n == 3 and edges == [[0, 1], [1, 2]] and weights == [1.5, None]
    n, edges, _ = read_edge_list("1 2\n2\t3\n")
    assert n == 3 and edges == [[0, 1], [1, 2]]
