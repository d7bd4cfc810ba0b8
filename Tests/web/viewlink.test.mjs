// node --test Tests/web/  — a view in the page's address (Public/viewlink.js) and the SVG
// drawing of a layout (Public/svgwriter.js)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { viewFromHash, viewHash, viewLinkKey } from '../../Public/viewlink.js';
import { linkFromHash } from '../../Public/links.js';
import { escapeXML, layoutSVG } from '../../Public/svgwriter.js';
import { createCellData, linkKey } from '../../Public/celldata.js';
import { paletteOf } from '../../Public/palette.js';

const SECRET = 'MMtXZE5dZjoTevJuHE8upA';

test('a view in the fragment: at=X,Y,ZOOM and select=ID, beside a room link', () => {
  assert.deepEqual(viewFromHash('#at=12.5,-3,0.75&select=42'), { at: { cx: 12.5, cy: -3, scale: 0.75 }, select: 42 });
  assert.deepEqual(viewFromHash(`#view=${SECRET}&at=0,0,2`), { at: { cx: 0, cy: 0, scale: 2 }, select: null });
  assert.deepEqual(viewFromHash('#select=7'), { at: null, select: 7 });
  for (const bad of ['', '#', '#at=1,2', '#at=1,2,0', '#at=a,b,c', '#at=1,2,-1', '#at=,,1', '#at=1,2,1e9', '#at=1,2,3,4', '#select=x', '#select=0', '#select=-4', '#select=1.5', null]) {
    const v = viewFromHash(bad);
    assert.ok(v.at === null || bad === '#select=x', String(bad));
    if (String(bad).includes('select')) assert.equal(v.select, null, String(bad));
  }
});

test('a view written and read back is the same view, with the room link first', () => {
  const cam = { cx: 123.456789, cy: -98.7654321, scale: 1.234567 };
  const hash = viewHash(cam, 12, { kind: 'view', secret: SECRET });
  assert.match(hash, new RegExp(`^#view=${SECRET}&at=`));
  assert.deepEqual(linkFromHash(hash), { kind: 'view', secret: SECRET }, 'the page still finds its key');
  const back = viewFromHash(hash);
  assert.equal(back.select, 12);
  assert.ok(Math.abs(back.at.cx - cam.cx) * cam.scale < 0.05, 'within a twentieth of a pixel');
  assert.ok(Math.abs(back.at.cy - cam.cy) * cam.scale < 0.05);
  assert.ok(Math.abs(back.at.scale / cam.scale - 1) < 1e-3);
  assert.equal(viewHash({ cx: 0, cy: 0, scale: 0.01 }, null), '#at=0,0,0.01');
  assert.equal(linkFromHash(viewHash({ cx: 1, cy: 2, scale: 3 }, null)), null, 'a view alone is no key');
});

test('which link a view carries: none in a room anyone may watch, else the view link', () => {
  assert.deepEqual(viewLinkKey('open', { edit: 'e', view: 'v' }, ''), { link: null, needsLink: false });
  assert.deepEqual(viewLinkKey('view', null, ''), { link: null, needsLink: false });
  assert.deepEqual(viewLinkKey('private', { edit: 'e', view: 'v' }, ''), { link: { kind: 'view', secret: 'v' }, needsLink: false });
  assert.deepEqual(viewLinkKey('private', null, `#view=${SECRET}`), { link: { kind: 'view', secret: SECRET }, needsLink: false });
  assert.deepEqual(viewLinkKey('private', null, `#edit=${SECRET}`), { link: null, needsLink: true }, 'never an edit link');
});

// the system's XML parser says whether a text is well-formed XML
function parseXML(text) {
  const script = 'import sys, xml.etree.ElementTree as E\nroot = E.fromstring(sys.stdin.buffer.read())\n'
    + 'ns = "{http://www.w3.org/2000/svg}"\n'
    + 'print(root.tag, len(root.findall(f".//{ns}circle")), len(root.findall(f".//{ns}line")), "|".join(t.text or "" for t in root.iter(f"{ns}text")))';
  return execFileSync('/usr/bin/python3', ['-c', script], { input: text }).toString().trim();
}

function sceneOf(labels, links) {
  const data = createCellData();
  const ids = labels.map((_, i) => i + 1);
  labels.forEach((label, i) => { if (label) data.cells.set(i + 1, { label }); });
  for (const [a, b] of links) data.links.set(linkKey(a, b), { source: a, target: b });
  const xy = new Float64Array(ids.flatMap((_, i) => [i * 30, (i % 2) * 20]));
  return {
    ids, xy, count: ids.length, cellSize: 20, radii: null, slots: new Uint16Array(ids.length).map((_, i) => i % 2),
    palette: paletteOf([[255, 0, 0], [0, 0, 255]]), index: new Map(ids.map((id, i) => [id, i])), data,
  };
}

test('the SVG is well-formed, holds every cell and link, and escapes labels', () => {
  const labels = ['Valjean', 'Tom & Jerry', '<script>alert(1)</script>', 'quote " and \' apos', 'bell\u0007 and nul\u0000', 'Éponine', ''];
  const svg = layoutSVG(sceneOf(labels, [[1, 2], [2, 3], [3, 4], [1, 7], [7, 99]]), {}, 'room <main>');
  assert.ok(svg.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<svg xmlns="http://www.w3.org/2000/svg"'));
  const [tag, circles, lines, texts] = parseXML(svg).split(' ');
  assert.equal(tag, '{http://www.w3.org/2000/svg}svg');
  assert.equal(Number(circles), 7);
  assert.equal(Number(lines), 4, 'a link to a cell not in the layout is left out');
  assert.ok(svg.includes('<title>room &lt;main&gt;</title>'));
  assert.ok(svg.includes('fill="#ff0000"') && svg.includes('fill="#0000ff"'), 'the cells keep their colours');
  const rest = parseXML(svg).split(' ').slice(3).join(' ');
  assert.equal(rest, 'Valjean|Tom & Jerry|<script>alert(1)</script>|quote " and \' apos|bell and nul|Éponine');
  assert.equal(escapeXML('a\uFFFEb\uD800c'), 'abc', 'non-characters and lone surrogates dropped');
});

test('an empty layout is still a drawing', () => {
  const svg = layoutSVG(sceneOf([], []), {}, 'empty');
  assert.equal(parseXML(svg).split(' ').slice(0, 3).join(' '), '{http://www.w3.org/2000/svg}svg 0 0');
});
