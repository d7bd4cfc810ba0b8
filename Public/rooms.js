// The room switcher: the room's name in the panel's header opens it (and closes it again, as
// does Escape inside it). While it is on the screen (open, the panel open, the tab visible)
// the rooms the server has in memory are asked for (GET /rooms) every few seconds and listed
// (roomlist.js), this page's room marked; each line is a link to its room's page, so
// switching is a navigation and Back returns. Below the list, a field opens a room by name
// (roomfield.js).
import { createPoller } from './poller.js';
import { createRoomField } from './roomfield.js';
import { roomRows, roomSummary } from './roomlist.js';

const REFRESH_MS = 3000;

/** GET /rooms, as parsed JSON; throws on a failed request. */
export async function fetchRooms() {
  const reply = await fetch('/rooms', { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
  return reply.json();
}

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

// One line of the list: the room's name and who and what is in it, a link to its page.
function rowElement(row) {
  const li = element('li');
  li.dataset.room = row.name;
  const a = element('a', 'room-link');
  a.href = row.href;
  a.append(element('span', 'room-link-name', row.name), element('span', 'room-link-detail', row.detail));
  if (row.current) {
    li.dataset.current = '';
    a.setAttribute('aria-current', 'page');
    a.title = 'You are in this room';
  }
  li.append(a);
  return li;
}

// The list and the line above it, from the answers to GET /rooms: the last listing stays
// when a request fails (the line says why). A refresh that changes nothing touches nothing,
// and the focused room's link keeps the focus across one that does.
function createListing(list, summary, state) {
  let listing = null;
  let failure = null;
  let shown = '';

  function render() {
    const rows = roomRows(listing, state.room);
    if (failure) summary.textContent = `Cannot list the rooms (${failure.message || failure})`;
    else summary.textContent = listing === null ? 'Looking\u2026' : roomSummary(rows);
    const key = JSON.stringify(rows);
    if (key === shown) return;
    shown = key;
    const focused = list.contains(document.activeElement) ? document.activeElement.closest('li')?.dataset.room : null;
    list.replaceChildren(...rows.map(rowElement));
    if (focused) list.querySelector(`li[data-room="${focused}"] a`)?.focus();
  }

  // this room's own line goes nowhere
  list.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a[aria-current]')) e.preventDefault();
  });
  state.on('room', render);
  render();
  return {
    answered(result) {
      if (result.ok) listing = result.value;
      failure = result.ok ? null : result.error;
      render();
    },
  };
}

/**
 * root: section#rooms (its .room-list, .rooms-summary, form, .room-error); toggle: the
 * button that opens it. `onOpen` runs when it opens (the panel opens with it);
 * `navigate(path)` goes to a room's page; `load()` asks for the rooms.
 */
export function createRoomSwitcher(root, toggle, state, {
  load = fetchRooms, navigate = (path) => location.assign(path), onOpen = () => {}, interval = REFRESH_MS,
} = {}) {
  const listing = createListing(root.querySelector('.room-list'), root.querySelector('.rooms-summary'), state);
  const poller = createPoller(load, listing.answered, { interval });
  createRoomField(root.querySelector('form'), root.querySelector('.room-error'), state, { navigate });

  // asks only while the list is on the screen: open, in an open panel, in a visible tab
  let onScreen = false;
  function follow() {
    if (onScreen && !root.hidden && !document.hidden) poller.start();
    else poller.stop();
  }
  new IntersectionObserver((entries) => {
    onScreen = entries[entries.length - 1].isIntersecting;
    follow();
  }).observe(root);
  document.addEventListener('visibilitychange', follow);

  function setOpen(open) {
    root.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    document.body.dataset.rooms = open ? 'open' : 'closed';
    if (open) onOpen();
    follow();
  }

  toggle.addEventListener('click', () => setOpen(root.hidden));
  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    setOpen(false);
    toggle.focus();
  });
  setOpen(false);
}
