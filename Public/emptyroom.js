// What an empty room says to a newcomer, over the canvas: add cells, import a graph (or drop
// a file), share the address. A viewer is told the room has nothing yet. Shown while the page
// is connected and the room has no cells (and no import is under way, and the page does not
// show the past).
export function createEmptyRoom(el, state, { add, importFile, share }) {
  const edit = el.querySelector('[data-part="edit"]');
  const view = el.querySelector('[data-part="view"]');
  const actions = el.querySelector('[data-part="actions"]');

  function render() {
    // the past shown is not the empty room now
    const empty = state.connection === 'connected' && state.ids.length === 0 && state.v !== null && document.body.dataset.importing !== 'true'
      && state.moment === null;
    el.hidden = !empty;
    const viewer = state.role === 'viewer';
    edit.hidden = viewer;
    view.hidden = !viewer;
    for (const b of actions.querySelectorAll('[data-empty="add"], [data-empty="import"]')) b.hidden = viewer;
  }

  el.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-empty]');
    if (!b) return;
    if (b.dataset.empty === 'add') add();
    else if (b.dataset.empty === 'import') importFile();
    else share(b);
  });
  // an empty room's first frame changes no membership: its positions say the room is known
  for (const type of ['connection', 'membership', 'access', 'positions', 'moment']) state.on(type, render);
  render();
  return { render };
}
