"""The picture sheet of one graph in `make bench-graphs`: every tool's drawing side by side in
a PNG, each scaled to its panel, edges as thin lines under nodes as small dots, a title over
each panel (tool, time, stress, NP). pycairo (Debian's python3-cairo) and numpy.

Drawing stays quick at 100k nodes and 300k edges: edges are stroked a thousand at a time (aliased
above 50k edges), all dots filled as one path: a few seconds for the largest bench graph even
when its drawing has not unfolded.
"""
import math

import cairo
import numpy as np

PANEL = 640          # pixels, each panel square
MARGIN = 16          # pixels around a drawing inside its panel
TITLE = 44           # pixels of title band over the panels
HEADING = 30         # pixels of the sheet's heading
LARGE = 50000        # edges above which links are drawn aliased
CHUNK = 1000         # edges stroked at a time


def panel_transform(positions, size=PANEL, margin=MARGIN):
    """(scale, offset_x, offset_y) mapping the drawing's bounding box into a size x size panel,
    aspect kept, centred."""
    low, high = positions.min(axis=0), positions.max(axis=0)
    extent = float(max(high[0] - low[0], high[1] - low[1]))
    scale = (size - 2 * margin) / extent if extent > 0 else 1.0
    centre = (low + high) / 2
    return scale, size / 2 - centre[0] * scale, size / 2 - centre[1] * scale


def draw_panel(context, graph, positions, left, top):
    scale, dx, dy = panel_transform(positions)
    xy = np.empty_like(positions)
    xy[:, 0] = positions[:, 0] * scale + dx + left
    xy[:, 1] = positions[:, 1] * scale + dy + top
    context.save()
    context.rectangle(left, top, PANEL, PANEL)
    context.clip()
    # Thinner, fainter lines and smaller dots as the graph grows, so structure shows at 100k.
    # Above LARGE edges they are drawn aliased, 1 pixel wide and faint: antialiased, 300k edges
    # across a drawing that has not unfolded take minutes.
    large = graph.m > LARGE
    context.set_line_width(0.9 if graph.m < 2000 else 0.5 if not large else 1.0)
    context.set_source_rgba(0.15, 0.25, 0.45, 0.8 if graph.m < 2000 else 0.15 if large else 0.45)
    if large:
        context.set_antialias(cairo.ANTIALIAS_NONE)
    ends = xy[graph.edges].reshape(-1, 4).tolist()
    move, line, stroke = context.move_to, context.line_to, context.stroke
    # Stroked a chunk at a time: cairo's cost for one path grows faster than its length.
    for start in range(0, len(ends), CHUNK):
        for x0, y0, x1, y1 in ends[start:start + CHUNK]:
            move(x0, y0)
            line(x1, y1)
        stroke()
    context.set_antialias(cairo.ANTIALIAS_DEFAULT)
    radius = 3.0 if graph.n < 500 else 1.5 if graph.n < 2000 else 0.8 if graph.n < 20000 else 0.5
    context.set_source_rgba(0.75, 0.2, 0.1, 0.9)
    if radius >= 2:
        for x, y in xy.tolist():
            context.new_sub_path()
            context.arc(x, y, radius, 0, 2 * math.pi)
    else:
        rectangle = context.rectangle
        for x, y in xy.tolist():
            rectangle(x - radius, y - radius, 2 * radius, 2 * radius)
    context.fill()
    context.restore()


def write_sheet(path, heading, graph, panels):
    """Writes the PNG `path`: `heading` on top, then one panel per (title lines, positions or
    None) in `panels`; a panel without positions says its title only (a tool that failed)."""
    width = PANEL * len(panels)
    height = HEADING + TITLE + PANEL
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
    context = cairo.Context(surface)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    context.select_font_face("sans-serif", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    context.set_font_size(16)
    context.set_source_rgb(0, 0, 0)
    context.move_to(10, 21)
    context.show_text(heading)
    for index, (lines, positions) in enumerate(panels):
        left = index * PANEL
        context.select_font_face("sans-serif", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
        context.set_font_size(13)
        context.set_source_rgb(0, 0, 0)
        for row, line in enumerate(lines[:2]):
            context.move_to(left + 10, HEADING + 17 + 18 * row)
            context.show_text(line)
        if index:
            context.set_source_rgb(0.8, 0.8, 0.8)
            context.set_line_width(1)
            context.move_to(left + 0.5, HEADING)
            context.line_to(left + 0.5, height)
            context.stroke()
        if positions is not None:
            draw_panel(context, graph, np.asarray(positions, dtype=float), left, HEADING + TITLE)
    surface.write_to_png(str(path))
    return path
