// The whole layout as an SVG drawing (the panel's "Picture: SVG"): links under the cells,
// each cell a circle of its radius and colour, its label beside it, on the canvas's
// background, framed with a margin. SVG 1.1 that browsers and Inkscape open; labels are
// escaped and characters XML cannot hold are dropped. The server's `GET /export/NAME.svg`
// draws the same for scripts. Pure, no DOM.

// XML 1.0 allows tab, newline, carriage return and these ranges; nothing else may appear
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text made safe for XML content and attribute values. */
export function escapeXML(text) {
  return String(text).replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const num = (v) => String(Math.round(v * 100) / 100);

/**
 * The drawing of `scene` ({ids, xy, count, radii, cellSize, slots, palette: {css}, index,
 * data: {cells, links}}) with `colors` ({bg, link, text}) and a `title`. Returns the SVG text.
 */
export function layoutSVG(scene, { bg = '#ffffff', link = '#64748b', text = '#1d2330' } = {}, title = 'forcelayout') {
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
  if (count === 0) [x0, y0, x1, y1] = [-100, -100, 100, 100];
  const margin = Math.max(10, 0.03 * Math.max(x1 - x0, y1 - y0));
  const [vx, vy, vw, vh] = [x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin];
  const fontSize = Math.max(2, r0 * 0.9);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="${num(vx)} ${num(vy)} ${num(vw)} ${num(vh)}" width="${num(Math.min(4096, vw))}" height="${num(Math.min(4096, vw) * (vh / vw))}">`,
    `<title>${escapeXML(title)}</title>`,
    `<rect x="${num(vx)}" y="${num(vy)}" width="${num(vw)}" height="${num(vh)}" fill="${escapeXML(bg)}"/>`,
  ];
  const links = [];
  for (const l of data.links.values()) {
    const a = index.get(l.source);
    const b = index.get(l.target);
    if (a === undefined || b === undefined || a >= count || b >= count) continue;
    links.push(`<line x1="${num(xy[2 * a])}" y1="${num(xy[2 * a + 1])}" x2="${num(xy[2 * b])}" y2="${num(xy[2 * b + 1])}"/>`);
  }
  out.push(`<g class="links" stroke="${escapeXML(link)}" stroke-opacity="0.5" stroke-width="${num(Math.max(0.2, r0 / 10))}">`, ...links, '</g>');
  out.push('<g class="cells">');
  for (let i = 0; i < count; i++) {
    const fill = palette.css[slots ? slots[i] : 0] ?? '#888888';
    out.push(`<circle id="cell-${ids[i]}" cx="${num(xy[2 * i])}" cy="${num(xy[2 * i + 1])}" r="${num(radius(i))}" fill="${escapeXML(fill)}"/>`);
  }
  out.push('</g>');
  out.push(`<g class="labels" font-family="sans-serif" font-size="${num(fontSize)}" fill="${escapeXML(text)}" stroke="${escapeXML(bg)}" stroke-width="${num(fontSize / 5)}" paint-order="stroke">`);
  for (let i = 0; i < count; i++) {
    const label = data.cells.get(ids[i])?.label;
    if (!label) continue;
    out.push(`<text x="${num(xy[2 * i] + radius(i) + fontSize / 4)}" y="${num(xy[2 * i + 1])}" dominant-baseline="central">${escapeXML(label)}</text>`);
  }
  out.push('</g>', '</svg>', '');
  return out.join('\n');
}
