#!/usr/bin/python3
"""`make bench-graphs`: how well and how fast forcelayout draws graphs, against graph-tool's
sfdp_layout and igraph's DrL on the same graphs in the same run (issue 23's yardstick).

For each graph (the bench's own, made here from fixed seeds, or `--graph FILE`), its largest
connected component is written as node-link JSON and drawn by:
- forcelayout through the real server, as a user sees it: a fresh `forcelayout serve`, a viewer
  on the room's WebSocket, `forcelayout import FILE --url …` (timed), the wait from the import's
  end until the room settles with every cell and link in it (at most --timeout), and the
  positions from GET /export/ROOM.json; the viewer notes the longest wait between frames;
- graph-tool's `sfdp_layout(g)` and igraph's `layout_drl()`, default parameters, timed.
Each drawing is measured by bench/graph_metrics.py (stress from 50 pivots, neighbourhood
preservation, edge-length variation), a table per graph and a JSON line per (graph, tool) go to
stdout, and a PNG per graph shows the drawings side by side (--pictures, default .bench/graphs).

Exit status: 0 when every tool drew every graph (targets missed and layouts that did not settle
are reported, not failures), 1 when a tool failed or timed out, 2 on bad arguments or missing
tools. Run with /usr/bin/python3 (Debian's python3-graph-tool, python3-igraph, python3-networkx,
python3-scipy, python3-cairo, python3-websockets: make bench-deps).
"""
import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

import common
from common import positive_float

ROOT = common.ROOT
TOOLS = ("sfdp", "DrL", "forcelayout")
# Issue 23's targets for forcelayout against sfdp: (what, most or least, bound).
STRESS_RATIO_TARGET = 1.1    # forcelayout's stress / sfdp's, at most
NP_RATIO_TARGET = 0.9        # forcelayout's NP / sfdp's, at least
TIME_RATIO_TARGET = 1.0      # forcelayout's import end -> settled / sfdp's layout time, at most
# Under this NP of sfdp's the NP ratio is a ratio of near-zeros (a scale-free graph's low-degree
# nodes sit among their siblings around a hub, not beside their own neighbours): said so.
NP_FLOOR = 0.05


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Layout quality of forcelayout against graph-tool's sfdp and igraph's DrL "
                    "(see bench/README.md).")
    parser.add_argument("--graph", action="append", default=[], metavar="FILE",
                        help="a graph file (node-link JSON or an edge list, as `forcelayout import` "
                             "reads) to run instead of the bench's graphs; repeatable")
    parser.add_argument("--only", metavar="NAME[,NAME]",
                        help="bench graphs to run, of: " + ", ".join(graph_sets().BENCH_GRAPHS))
    parser.add_argument("--skip-100k", action="store_true", help="leave out the 100k-node graph")
    parser.add_argument("--tools", default=",".join(TOOLS),
                        help=f"tools to run (default {','.join(TOOLS)})")
    parser.add_argument("--bin", type=Path, default=None,
                        help="the forcelayout binary (default $FORCELAYOUT_BIN, else "
                             ".build/release/forcelayout)")
    parser.add_argument("--timeout", type=positive_float, default=120.0,
                        help="seconds forcelayout may take from the import's end until settled "
                             "(default 120; its drawing is measured as it is then)")
    parser.add_argument("--reference-timeout", type=positive_float, default=600.0,
                        help="seconds sfdp and DrL may take each (default 600; then left out, and "
                             "the run fails)")
    parser.add_argument("--import-timeout", type=positive_float, default=600.0,
                        help="seconds the import may take (default 600)")
    parser.add_argument("--pictures", type=Path, default=ROOT / ".bench" / "graphs",
                        help="folder for the picture sheets, one PNG per graph (default .bench/graphs)")
    parser.add_argument("--no-pictures", action="store_true", help="draw no picture sheets")
    args = parser.parse_args(argv)
    names = list(graph_sets().BENCH_GRAPHS)
    if args.only:
        wanted = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in wanted if name not in names]
        if unknown:
            parser.error(f"--only: no bench graph {', '.join(unknown)} (there are {', '.join(names)})")
        names = wanted
    if args.skip_100k:
        names = [name for name in names if not graph_sets().BENCH_GRAPHS[name][2]]
    args.names = names
    args.tools = [tool.strip() for tool in args.tools.split(",") if tool.strip()]
    unknown = [tool for tool in args.tools if tool not in TOOLS]
    if unknown or not args.tools:
        parser.error(f"--tools: of {', '.join(TOOLS)}")
    if args.bin is None:
        args.bin = common.find_binary("release")
    elif not args.bin.is_absolute():
        args.bin = Path.cwd() / args.bin
    return args


def graph_sets():
    import graph_sets as module
    return module


def check_tools(args):
    problems = []
    if "forcelayout" in args.tools and not (args.bin.is_file() and os.access(args.bin, os.X_OK)):
        problems.append(f"no executable forcelayout at {args.bin} (build it: swift build -c release "
                        "--product forcelayout, or pass --bin)")
    needed = {"numpy": "python3-numpy", "scipy": "python3-scipy", "networkx": "python3-networkx",
              "cairo": "python3-cairo", "websockets": "python3-websockets"}
    if "sfdp" in args.tools:
        needed["graph_tool"] = "python3-graph-tool"
    if "DrL" in args.tools:
        needed["igraph"] = "python3-igraph"
    for module, package in needed.items():
        try:
            __import__(module)
        except ImportError:
            problems.append(f"no Python module {module} (install {package}: make bench-deps)")
    return problems


def log(text):
    print(text, file=sys.stderr, flush=True)


def load_graphs(args, directory):
    sets = graph_sets()
    graphs = []
    sources = [(path, lambda path=path: sets.read_file(path)) for path in args.graph] if args.graph else \
        [(name, lambda name=name: sets.make(name)) for name in args.names]
    for source, maker in sources:
        started = time.monotonic()
        try:
            bench_graph = maker()
        except (OSError, ValueError) as error:
            raise SystemExit(f"graph_quality: {source}: {error}")
        taken = {g.name for g in graphs}
        while bench_graph.name in taken:
            bench_graph.name += "-2"
        sets.write_node_link(bench_graph, directory)
        log(f"{bench_graph.title}: {bench_graph.counts} (made in {time.monotonic() - started:.1f} s)")
        graphs.append(bench_graph)
    return graphs


def run_graph(args, bench_graph):
    """Every tool's drawing of one graph, measured: [(Drawing, figures or None)]."""
    import graph_layouts
    import graph_metrics
    graph = bench_graph.graph
    sources = graph_metrics.pivots(graph)
    distances = graph_metrics.pivot_distances(graph, sources)
    results = []
    for tool in TOOLS:
        if tool not in args.tools:
            continue
        log(f"  {tool} …")
        if tool == "sfdp":
            drawing = graph_layouts.sfdp_layout(graph, args.reference_timeout)
        elif tool == "DrL":
            drawing = graph_layouts.drl_layout(graph, args.reference_timeout)
        else:
            drawing = graph_layouts.forcelayout_layout(args.bin, bench_graph, args.timeout,
                                                       args.import_timeout, log=log)
        figures = None
        if drawing.positions is not None:
            started = time.monotonic()
            try:
                figures = graph_metrics.measure(graph, drawing.positions, sources, distances)
            except ValueError as error:
                drawing.error = str(error)
            else:
                figures["measureSeconds"] = time.monotonic() - started
        shown = f"{drawing.seconds:.2f} s" if drawing.seconds is not None else "—"
        log(f"  {tool}: {shown}" + (f", error: {drawing.error}" if drawing.error else "")
            + (f", stress {figures['stress']:.4f}, NP {figures['np']:.3f}" if figures else ""))
        results.append((drawing, figures))
    return results


def json_line(bench_graph, drawing, figures):
    line = {"graph": bench_graph.name, "title": bench_graph.title, "nodes": bench_graph.graph.n,
            "edges": bench_graph.graph.m, "tool": drawing.tool, "seconds": rounded(drawing.seconds)}
    if drawing.tool == "forcelayout":
        line["settled"] = drawing.settled
    if figures:
        line.update({key: rounded(value) for key, value in figures.items()})
    line.update({key: rounded(value) for key, value in drawing.extra.items()})
    if drawing.error:
        line["error"] = drawing.error
    return line


def rounded(value):
    if isinstance(value, float):
        return float(f"{value:.5g}") if math.isfinite(value) else None
    return value


def ratios(results):
    """forcelayout against sfdp: {"stress", "np", "time"} of what both measured."""
    by_tool = {drawing.tool: (drawing, figures) for drawing, figures in results}
    ours, sfdp = by_tool.get("forcelayout"), by_tool.get("sfdp")
    if not ours or not sfdp or not ours[1] or not sfdp[1]:
        return {}
    found = {}
    if sfdp[1]["stress"] > 0:
        found["stress"] = ours[1]["stress"] / sfdp[1]["stress"]
    if sfdp[1]["np"] > 0:
        found["np"] = ours[1]["np"] / sfdp[1]["np"]
    if sfdp[0].seconds and ours[0].seconds is not None:
        found["time"] = ours[0].seconds / sfdp[0].seconds
    return found


def seconds_text(drawing):
    if drawing.seconds is None:
        return "—"
    text = f"{drawing.seconds:.2f}" if drawing.seconds < 100 else f"{drawing.seconds:.0f}"
    if drawing.tool == "forcelayout" and not drawing.settled:
        text = f"> {text} (not settled)"
    return text


def print_table(bench_graph, results):
    print(f"### {bench_graph.title}: {bench_graph.counts}")
    print()
    print("| tool | time s | stress | NP | edge CV | import s | max frame gap ms (import start → settled) | notes |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for drawing, figures in results:
        extra = drawing.extra
        notes = []
        if drawing.error:
            notes.append(drawing.error)
        if "stepsAfterImport" in extra:
            notes.append(f"{extra['stepsAfterImport']} steps after the import")
        if extra.get("tickMs") is not None:
            notes.append(f"tick {extra['tickMs']:.3g} ms")
        if "importNote" in extra:
            notes.append(extra["importNote"])
        print(f"| {drawing.tool} | {seconds_text(drawing)} "
              f"| {fixed(figures, 'stress', 4)} | {fixed(figures, 'np', 3)} | {fixed(figures, 'edgeCV', 3)} "
              f"| {number(extra.get('importSeconds'), 2)} | {number(extra.get('maxGapMs'), 0)} "
              f"| {'; '.join(notes)} |")
    print()
    for line in target_lines(results):
        print(line)
    print()


def target_lines(results):
    """Issue 23's targets for forcelayout against sfdp on this graph, each ok or MISSED."""
    by_tool = {drawing.tool: drawing for drawing, _ in results}
    ours = by_tool.get("forcelayout")
    if ours is None:
        return []
    found = ratios(results)
    lines = []
    if "stress" in found:
        lines.append(verdict(f"stress forcelayout / sfdp {found['stress']:.2f}×", found["stress"] <= STRESS_RATIO_TARGET,
                             f"≤ {STRESS_RATIO_TARGET}"))
    if "np" in found:
        line = verdict(f"NP forcelayout / sfdp {found['np']:.2f}×", found["np"] >= NP_RATIO_TARGET,
                       f"≥ {NP_RATIO_TARGET}")
        sfdp_np = next(figures["np"] for drawing, figures in results if drawing.tool == "sfdp")
        if sfdp_np < NP_FLOOR:
            line += f" (sfdp's NP is {sfdp_np:.3f}: on this graph the ratio says little)"
        lines.append(line)
    if "time" in found:
        shown = f"{'> ' if not ours.settled else ''}{found['time']:.2f}×"
        lines.append(verdict(f"time forcelayout (import end → settled) / sfdp {shown}",
                             ours.settled and found["time"] <= TIME_RATIO_TARGET, f"≤ {TIME_RATIO_TARGET:g}"))
    # The multilevel layout starts once the import's last batch is in (the engine waits for
    # the batches to stop), so "while it unfolds" is from the import's end; the gap during
    # the import itself is shown beside it.
    gap = ours.extra.get("maxGapAfterImportMs")
    if gap is not None:
        import graph_layouts
        during = ours.extra.get("maxGapMs")
        beside = f" (during the import {during:.0f} ms)" if during is not None else ""
        lines.append(verdict(f"largest gap between frames while it unfolds (import end → settled) {gap:.0f} ms{beside}",
                             gap <= graph_layouts.FRAME_GAP_TARGET_MS,
                             f"≤ {graph_layouts.FRAME_GAP_TARGET_MS:.0f} ms"))
    if not found and ours.error:
        lines.append(f"- targets not measured: forcelayout {ours.error}")
    return lines


def verdict(text, met, bound):
    return f"- {text} (target {bound}): {'ok' if met else 'MISSED'}"


def fixed(figures, key, digits):
    return "—" if not figures else f"{figures[key]:.{digits}f}"


def number(value, digits):
    return "—" if value is None else f"{value:.{digits}f}"


def sheet(args, bench_graph, results):
    import graph_sheet
    panels = []
    for drawing, figures in results:
        title = f"{drawing.tool}: {drawing.seconds:.2f} s" if drawing.seconds is not None else drawing.tool
        if drawing.tool == "forcelayout" and not drawing.settled and drawing.seconds is not None:
            title = f"forcelayout: not settled in {drawing.seconds:.0f} s"
        if drawing.tool == "forcelayout" and "importSeconds" in drawing.extra:
            title += f" after a {drawing.extra['importSeconds']:.1f} s import"
        detail = f"stress {figures['stress']:.4f}, NP {figures['np']:.3f}, edge CV {figures['edgeCV']:.2f}" \
            if figures else (drawing.error or "no drawing")
        panels.append(([title, detail], drawing.positions if figures else None))
    args.pictures.mkdir(parents=True, exist_ok=True)
    path = args.pictures / f"{bench_graph.name}.png"
    started = time.monotonic()
    graph_sheet.write_sheet(path, f"{bench_graph.title}: {bench_graph.counts}", bench_graph.graph, panels)
    log(f"  picture sheet {path} ({time.monotonic() - started:.1f} s)")
    return path


def main(argv):
    args = parse_args(argv)
    problems = check_tools(args)
    if problems:
        for problem in problems:
            print(f"graph_quality: {problem}", file=sys.stderr)
        return 2
    print(common.header("forcelayout graph quality",
                        f"forcelayout {args.bin}, timeout {args.timeout:g} s, sfdp and DrL {args.reference_timeout:g} s; "
                        "graph-tool sfdp_layout and igraph layout_drl with default parameters"), flush=True)
    print()
    started = time.monotonic()
    failures, pictures = [], []
    with tempfile.TemporaryDirectory(prefix="forcelayout-graphs-") as directory:
        graphs = load_graphs(args, directory)
        for bench_graph in graphs:
            log(f"{bench_graph.title} ({bench_graph.counts})")
            results = run_graph(args, bench_graph)
            print_table(bench_graph, results)
            for drawing, figures in results:
                print(json.dumps(json_line(bench_graph, drawing, figures), ensure_ascii=False))
                if drawing.error:
                    failures.append(f"{bench_graph.title}, {drawing.tool}: {drawing.error}")
            ratio = ratios(results)
            if ratio:
                print(json.dumps({"graph": bench_graph.name, "tool": "forcelayout/sfdp",
                                  **{key: rounded(value) for key, value in ratio.items()}}))
            print(flush=True)
            if not args.no_pictures:
                pictures.append(sheet(args, bench_graph, results))
    if pictures:
        print(f"picture sheets: {', '.join(str(path) for path in pictures)}")
    print(f"total {time.monotonic() - started:.0f} s, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return common.exit_status(failures)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main(sys.argv[1:]))
