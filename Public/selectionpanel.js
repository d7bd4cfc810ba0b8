// The panel's "Selected" section: what is highlighted (a cell: its label, group and degree;
// or a legend group: its size), its neighbours by label (one hop, or two with the toggle),
// each a button that selects it, and the actions on it: fit it in the view, point at it for
// everyone (pointing.js), under the name this page gives itself. Hidden while nothing is
// highlighted; Esc or its close button clear it.
import { clearFocus, groupMembers, selectId, setHops } from './state.js';
import { cellName } from './celldata.js';

const MAX_LISTED = 200;

export function createSelectionPanel(el, state, { neighbours, pointing, onFit, onPoint }) {
  const what = el.querySelector('[data-part="what"]');
  const list = el.querySelector('[data-part="neighbours"]');
  const listTitle = el.querySelector('[data-part="neighbours-title"]');
  const hops = el.querySelector('[data-part="hops"]');
  const fit = el.querySelector('[data-part="fit"]');
  const point = el.querySelector('[data-part="point"]');
  const clear = el.querySelector('[data-part="clear"]');
  const name = el.querySelector('[data-part="name"]');
  let shown = null;

  function listCells(ids, title) {
    listTitle.textContent = title;
    const items = ids.slice(0, MAX_LISTED).map((id) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.id = String(id);
      b.textContent = cellName(state.data, id);
      const group = state.data.cells.get(id)?.group;
      if (group !== undefined) b.title = `group ${group}`;
      li.append(b);
      return li;
    });
    if (ids.length > MAX_LISTED) {
      const li = document.createElement('li');
      li.className = 'more';
      li.textContent = `and ${(ids.length - MAX_LISTED).toLocaleString('en-US')} more`;
      items.push(li);
    }
    list.replaceChildren(...items);
  }

  function render() {
    el.hidden = !state.focused;
    if (!state.focused) {
      shown = null;
      return;
    }
    const key = [state.selectedId, state.group, state.hops, state.data.version, state.ids.length, state.pointers.get(state.client)?.id].join('|');
    if (key === shown) return;
    shown = key;
    hops.checked = state.hops === 2;
    if (state.group !== null) {
      const members = groupMembers(state);
      what.textContent = `Group ${state.group}: ${members.length.toLocaleString('en-US')} cells`;
      listCells(members, 'Cells of the group');
      point.disabled = true;
      return;
    }
    const id = state.selectedId;
    const d = state.data.cells.get(id);
    const degree = neighbours.degree(id);
    const parts = [cellName(state.data, id)];
    if (d?.group !== undefined) parts.push(`group ${d.group}`);
    parts.push(degree === 1 ? '1 link' : `${degree.toLocaleString('en-US')} links`);
    what.textContent = parts.join(' · ');
    const n = neighbours.of(id, state.hops);
    const ids = [...n.ring1, ...n.ring2];
    listCells(ids, ids.length === 0 ? 'No neighbours' : `Neighbours (${ids.length.toLocaleString('en-US')}${state.hops === 2 ? ', two hops' : ''})`);
    point.disabled = false;
    const mine = pointing.pointingAt === id;
    point.setAttribute('aria-pressed', String(mine));
    point.textContent = mine ? 'Stop pointing' : 'Point here';
  }

  list.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-id]');
    if (b) selectId(state, Number(b.dataset.id));
  });
  hops.addEventListener('change', () => setHops(state, hops.checked ? 2 : 1));
  fit.addEventListener('click', onFit);
  point.addEventListener('click', () => onPoint(state.selectedId));
  clear.addEventListener('click', () => clearFocus(state));
  name.value = pointing.name;
  name.addEventListener('change', () => {
    pointing.setName(name.value);
    name.value = pointing.name;
  });
  for (const type of ['selection', 'membership', 'data', 'pointers']) state.on(type, render);
  render();
}
