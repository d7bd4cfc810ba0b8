// The colour legend over the canvas: one line per client who added cells now in the layout
// (most cells first), a swatch of its colour, "you" for this page's own; cells of no known
// owner (restored from a state file) as "restored". At most MAX lines, the rest summed up.
// It follows the state's membership, owners, client id and colour scheme; `paintOf(ids)`
// gives the owners, counts and colours of a membership (scene.js, shared with the canvas).
const MAX = 6;

export function createLegend(el, state, paintOf) {
  let last = '';

  function render() {
    const p = paintOf(state.ids);
    const me = state.client;
    const rows = p.owners.map((client, s) => ({ client, count: p.counts[s], css: p.palette.css[s] }))
      .filter((e) => e.count > 0)
      .sort((a, b) => b.count - a.count || String(a.client).localeCompare(String(b.client)));
    const key = JSON.stringify([rows.map((r) => [r.client, r.count, r.css]), me]);
    if (key === last) return;
    last = key;
    el.replaceChildren();
    el.hidden = rows.length === 0;
    const shown = rows.length > MAX ? rows.slice(0, MAX - 1) : rows;
    for (const r of shown) {
      const li = document.createElement('li');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = r.css;
      const name = document.createElement('span');
      name.className = 'who';
      if (r.client === null) name.textContent = 'restored';
      else name.textContent = r.client === me ? `${r.client} (you)` : r.client;
      if (r.client !== null && r.client === me) li.classList.add('you');
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = r.count.toLocaleString('en-US');
      li.append(sw, name, n);
      li.dataset.client = r.client ?? '';
      el.append(li);
    }
    if (shown.length < rows.length) {
      const li = document.createElement('li');
      li.className = 'more';
      const rest = rows.slice(shown.length);
      li.textContent = `${rest.length} more: ${rest.reduce((s, r) => s + r.count, 0).toLocaleString('en-US')}`;
      el.append(li);
    }
  }

  for (const type of ['membership', 'owners', 'connection', 'theme']) state.on(type, render);
  render();
}
