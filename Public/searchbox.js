// The panel's search field: a combobox whose list of cells (a listbox) follows what is typed
// (search.js), best first, each with its group. Arrow keys move through the list, Enter (or a
// click) goes to the cell, Esc closes the list, then empties the field. `/` and Ctrl+K come
// here from anywhere (main.js). A query runs once per animation frame at most, however fast
// the keys come, and the index is built when the field gets the focus.
import { createSearch } from './search.js';

const SHOWN = 8;

export function createSearchBox({ input, list, note }, state, { onGo }) {
  const search = createSearch(() => ({ ids: state.ids, cells: state.data.cells, version: state.data.version }));
  let matches = [];
  let active = -1;
  let queued = 0; // the animation frame a query waits for, 0: none

  function setActive(i) {
    active = matches.length === 0 ? -1 : (i + matches.length) % matches.length;
    [...list.children].forEach((li, j) => li.setAttribute('aria-selected', String(j === active)));
    if (active >= 0) {
      input.setAttribute('aria-activedescendant', list.children[active].id);
      list.children[active].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }

  function run() {
    cancelAnimationFrame(queued);
    queued = 0;
    const text = input.value;
    if (text.trim() === '') {
      matches = [];
      list.replaceChildren();
      note.textContent = '';
      close();
      return;
    }
    const { matches: found, total } = search.query(text, SHOWN);
    matches = found;
    list.replaceChildren(...found.map((m, i) => {
      const li = document.createElement('li');
      li.id = `find-option-${i}`;
      li.setAttribute('role', 'option');
      li.dataset.id = String(m.id);
      const label = document.createElement('span');
      label.className = 'find-label';
      label.textContent = m.label || `Cell ${m.id}`;
      li.append(label);
      if (m.group !== undefined) {
        const group = document.createElement('span');
        group.className = 'find-group';
        group.textContent = m.group;
        li.append(group);
      }
      return li;
    }));
    note.textContent = total === 0 ? 'No cell matches.' : total > found.length ? `${total.toLocaleString('en-US')} match; the best ${found.length} shown.` : '';
    list.hidden = found.length === 0;
    input.setAttribute('aria-expanded', String(found.length > 0));
    setActive(found.length > 0 ? 0 : -1);
  }

  function go(i) {
    const m = matches[i];
    if (!m) return;
    close();
    onGo(m.id);
  }

  input.addEventListener('input', () => {
    if (!queued) queued = requestAnimationFrame(run);
  });
  input.addEventListener('focus', () => {
    // 100k labels take a frame or more to fold: do it before the first key, not on it
    if (input.value.trim() !== '') run();
    else setTimeout(search.warm, 0);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.hidden && input.value.trim() !== '') run();
      else setActive(active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (queued) run();
      go(Math.max(active, 0));
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (!list.hidden) close();
      else if (input.value !== '') {
        input.value = '';
        run();
      } else input.blur();
    }
  });
  // a press on an option, not a blur first: the list stays until the click lands
  list.addEventListener('mousedown', (e) => e.preventDefault());
  list.addEventListener('click', (e) => {
    const li = e.target.closest('[role="option"]');
    if (li) go([...list.children].indexOf(li));
  });
  input.addEventListener('blur', () => setTimeout(close, 0));
  // the list follows the cells while it is open
  state.on('membership', () => {
    if (!list.hidden) run();
  });

  return {
    /** Put the cursor in the field (the `/` and Ctrl+K keys). */
    focus() {
      input.focus();
      input.select();
    },
  };
}
