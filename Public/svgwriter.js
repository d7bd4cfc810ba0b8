// The whole layout as an SVG drawing (the panel's "Picture: SVG"): links under the cells,
// each cell a circle of its radius and colour, its label on it, on the canvas's background,
// framed with a margin. SVG 1.1 that browsers and Inkscape open; labels are
// escaped and characters XML cannot hold are dropped. The server's `GET /export/NAME.svg`
// draws the same for scripts. Pure, no DOM.

// XML 1.0 allows tab, newline, carriage return and these ranges; nothing else may appear
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text made safe for XML content and attribute values. */
export function escapeXML(text) {
  return String(text).replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// to 0.01 without trailing zeros, as the server writes its numbers
const num = (v) => (Number.isFinite(v) ? String(Math.round(v * 100) / 100) : '0');

/**
 * The drawing of `scene` ({ids, xy, count, radii, cellSize, slots, palette: {css}, index,
 * data: {cells, links}}) with `colors` ({bg, link, text}) and a `title`. Returns the SVG text.
 * It is laid out as the server's (Sources/LayoutCore/Export/SVGDrawing.swift): the frame,
 * the groups, labels centred on their cells at 0.6 of a cell's radius, hairline links.
 */
export function layoutSVG(scene, { bg = '#fbfbfc', link = '#475569', text = '#1d2330' } = {}, title = 'forcelayout') {
  const { ids, xy, count, radii, slots, palette, index, data } = scene;
  const r0 = (Number(scene.cellSize) || 20) / 2;
  const radius = (i) => (radii && radii[i] > 0 ? radii[i] : r0);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < count; i++) {
    const r = radius(i);
    x0 = Math.min(x0, xy[2 * i] - r);
    y0 = Math.min(y0, xy[2 * i + 1] - r);
    x1 = Math.max(x1, xy[2 * i] + r);
    y1 = Math.max(y1, xy[2 * i + 1] + r);
  }
  const unit = Math.max(r0, 1);
  let frame;
  if (count === 0) frame = [-25 * unit, -25 * unit, 50 * unit, 50 * unit];
  else {
    const margin = Math.max(4 * unit, 0.1 * Math.max(x1 - x0, y1 - y0));
    const fx = Math.floor((x0 - margin) * 100) / 100;
    const fy = Math.floor((y0 - margin) * 100) / 100;
    frame = [fx, fy, Math.ceil((x1 + margin - fx) * 100) / 100, Math.ceil((y1 + margin - fy) * 100) / 100];
  }
  const [vx, vy, vw, vh] = frame;
  const pixels = Math.max(1, 1200 / Math.max(vw, vh));
  const out = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(vw * pixels)}" height="${num(vh * pixels)}" viewBox="${num(vx)} ${num(vy)} ${num(vw)} ${num(vh)}">`,
    `<title>${escapeXML(title)}</title>`,
    `<rect x="${num(vx)}" y="${num(vy)}" width="${num(vw)}" height="${num(vh)}" fill="${escapeXML(bg)}"/>`,
    `<g id="links" stroke="${escapeXML(link)}" stroke-width="${num(Math.max(0.25, r0 / 10))}" fill="none">`,
  ];
  for (const l of data.links.values()) {
    const a = index.get(l.source);
    const b = index.get(l.target);
    if (a === undefined || b === undefined || a >= count || b >= count) continue;
    out.push(`<line x1="${num(xy[2 * a])}" y1="${num(xy[2 * a + 1])}" x2="${num(xy[2 * b])}" y2="${num(xy[2 * b + 1])}"/>`);
  }
  out.push('</g>', '<g id="cells" stroke="none">');
  for (let i = 0; i < count; i++) {
    const fill = palette.css[slots ? slots[i] : 0] ?? '#888888';
    out.push(`<circle cx="${num(xy[2 * i])}" cy="${num(xy[2 * i + 1])}" r="${num(radius(i))}" fill="${escapeXML(fill)}"/>`);
  }
  out.push('</g>');
  const labels = [];
  for (let i = 0; i < count; i++) {
    const label = data.cells.get(ids[i])?.label;
    if (label) labels.push(`<text x="${num(xy[2 * i])}" y="${num(xy[2 * i + 1])}">${escapeXML(label)}</text>`);
  }
  if (labels.length > 0) {
    out.push(`<g id="labels" font-family="system-ui, sans-serif" font-size="${num(r0 * 0.6)}" fill="${escapeXML(text)}" text-anchor="middle" dominant-baseline="central">`, ...labels, '</g>');
  }
  out.push('</svg>', '');
  return out.join('\n');
}
