// Rooms (issue 11): each room is a layout of its own, named in the page's address. A room's
// name is 1 to 40 of a-z, 0-9, '-' and '_', starting with a letter or a digit, checked
// exactly as the server checks it (Sources/LayoutCore/Rooms/RoomName.swift). Room `main`
// lives at `/` (also `/index.html` and `/r/main`), room NAME at `/r/NAME`; their WebSockets
// at `/ws` and `/ws/NAME`. The page's own files stay relative paths, which the server also
// serves under `/r/`. Pure, no DOM.

export const MAIN_ROOM = 'main';
export const MAX_ROOM_NAME = 40;
export const ROOM_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** True for a valid room name, exactly as written (nothing decoded, trimmed or lowered). */
export function isRoomName(text) {
  return typeof text === 'string' && ROOM_NAME.test(text);
}

/**
 * The room of a page at `pathname`: NAME for `/r/NAME`, `main` for `/` and `/index.html`
 * (and for any path the server does not serve the page at).
 */
export function roomFromPath(pathname) {
  const m = /^\/r\/([^/]*)$/.exec(typeof pathname === 'string' ? pathname : '');
  return m && isRoomName(m[1]) ? m[1] : MAIN_ROOM;
}

/**
 * The address of a room's page: `/r/NAME`, and `/` for main. `/r/main` would open the same
 * room, but `/` is the address main always had (bookmarks, docs, servers without rooms),
 * and one address per room keeps links, history and the switcher's marks the same.
 */
export function roomPath(room) {
  return room === MAIN_ROOM ? '/' : `/r/${room}`;
}

/** The path of a room's WebSocket: `/ws` for main, `/ws/NAME` otherwise. */
export function socketPath(room) {
  return room === MAIN_ROOM ? '/ws' : `/ws/${room}`;
}

/** The absolute address of a room's page, for the location `loc` ({protocol, host}). */
export function roomUrl(loc, room) {
  return `${loc.protocol}//${loc.host}${roomPath(room)}`;
}

/** The document's title in a room: "demo · forcelayout". */
export function pageTitle(room) {
  return `${room} \u00b7 forcelayout`;
}

/**
 * A name typed by someone, checked: `{ok: true, name}` (surrounding blanks dropped), or
 * `{ok: false, message, suggestion}`: what is wrong in one sentence and, when there is one,
 * the valid name probably meant ("Room names are lower case. Try “demo”.").
 */
export function checkRoomName(typed) {
  const name = String(typed ?? '').trim();
  if (name === '') return { ok: false, message: 'Type a room name.', suggestion: null };
  if (isRoomName(name)) return { ok: true, name };
  const suggestion = suggestRoomName(name);
  const problem = whatIsWrong(name);
  const message = suggestion ? `${problem}. Try \u201c${suggestion}\u201d.` : `${problem}.`;
  return { ok: false, message, suggestion };
}

// The first thing wrong with an invalid name, as the start of a sentence.
function whatIsWrong(name) {
  if (/[^A-Za-z0-9_-]/.test(name)) return 'Use only a\u2013z, 0\u20139, - and _ (no spaces)';
  if (/[A-Z]/.test(name)) return 'Room names are lower case';
  if (!/^[a-z0-9]/.test(name)) return 'Start with a letter or a digit';
  return `At most ${MAX_ROOM_NAME} characters`;
}

/**
 * The valid name closest to `text`, or null: lower case, accents dropped, every run of other
 * signs (spaces, dots, slashes) one '-', no '-' or '_' in front, at most 40 characters.
 */
export function suggestRoomName(text) {
  const name = String(text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, MAX_ROOM_NAME)
    .replace(/-+$/, '');
  return isRoomName(name) ? name : null;
}
