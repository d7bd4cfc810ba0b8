// The colour legend over the canvas: with groups (cells' `group`), one line per group in
// order and "no group"; else one line per client who added cells now in the layout (most
// cells first), a swatch of its colour, "you" for this page's own; cells of no known owner
// (restored from a state file) as "restored". At most MAX lines, the rest summed up. It
// follows the state's membership, owners, data, client id and colour scheme (or the moment of
// the past the canvas shows); `paintOf(ids, data)`
// gives the legend of a membership (scene.js, shared with the canvas). A group's line is a
// button that highlights the group's cells.
const MAX = 12;

export function createLegend(el, state, paintOf) {
  let last = '';

  function render() {
    // what the canvas draws: the live layout, or the moment of the past shown
    const { moment } = state;
    const { legend } = moment === null ? paintOf(state.ids) : paintOf(moment.ids, moment.data, moment.owners ?? state.owners);
    const me = state.client;
    const rows = legend.rows;
    const shown = rows.length > MAX ? rows.slice(0, MAX - 1) : rows;
    // the same lines (a moment after another while the timeline is dragged): only the counts,
    // and the sum of those not shown
    const key = JSON.stringify([legend.by, shown.map((r) => [r.name, r.css]), me, state.focused && state.group]);
    if (key === last) {
      el.querySelectorAll('.n').forEach((n, i) => setText(n, rows[i].count.toLocaleString('en-US')));
      const more = el.querySelector('.more');
      if (more) setText(more, moreText(rows.slice(shown.length)));
      return;
    }
    last = key;
    el.replaceChildren();
    el.hidden = rows.length === 0;
    el.dataset.by = legend.by;
    el.setAttribute('aria-label', legend.by === 'group' ? 'Cells by group' : 'Cells by who added them');
    for (const r of shown) {
      const li = document.createElement('li');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      if (r.css) sw.style.background = r.css;
      else sw.classList.add('none');
      const name = document.createElement('span');
      name.className = 'who';
      if (legend.by === 'group') name.textContent = r.name;
      else if (r.client === null) name.textContent = 'restored';
      else name.textContent = r.client === me ? `${r.client} (you)` : r.client;
      if (legend.by === 'owner' && r.client !== null && r.client === me) li.classList.add('you');
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = r.count.toLocaleString('en-US');
      if (legend.by === 'group' && r.key !== 'other') {
        // a group is a button: it highlights the group's cells (main.js), again: no longer
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.group = r.name;
        b.title = `Highlight the cells of group ${r.name}`;
        b.setAttribute('aria-pressed', String(state.focused && state.group === r.name));
        b.append(sw, name, n);
        li.append(b);
      } else {
        li.append(sw, name, n);
        if (legend.by === 'owner') li.dataset.client = r.client ?? '';
      }
      el.append(li);
    }
    if (shown.length < rows.length) {
      const li = document.createElement('li');
      li.className = 'more';
      li.textContent = moreText(rows.slice(shown.length));
      el.append(li);
    }
  }

  for (const type of ['membership', 'owners', 'data', 'connection', 'theme', 'selection', 'moment']) state.on(type, render);
  render();
}

// "3 more: 1,204": the lines not shown, summed up
const moreText = (rest) => `${rest.length} more: ${rest.reduce((s, r) => s + r.count, 0).toLocaleString('en-US')}`;

// a text changed only when it differs: the same text set again is a layout all the same
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
