// What the room switcher shows of `GET /rooms` ({"rooms": [{name, clients, cells, …}]}, the
// rooms in the server's memory, most clients first): one row per room, in the server's
// order, with the page's own room marked, and a line summing them up. Pure, no DOM.
import { isRoomName, roomPath } from './room.js';

export const MAX_ROWS = 100; // the server lists at most 100

const count = (v) => (Number.isSafeInteger(v) && v >= 0 ? v : 0);
const number = (n) => n.toLocaleString('en-US');

/** "no one", "1 person", "12 people" */
export function people(n) {
  if (n === 0) return 'no one';
  return n === 1 ? '1 person' : `${number(n)} people`;
}

/** "1 cell", "12,000 cells" */
export function cells(n) {
  return `${number(n)} ${n === 1 ? 'cell' : 'cells'}`;
}

/**
 * The rows of a listing (as parsed JSON, any shape): [{name, href, clients, cells, detail,
 * current}], `current` for the room named `current`. Entries that are not a room of a valid
 * name are left out, and so is a name seen before.
 */
export function roomRows(listing, current) {
  const rooms = Array.isArray(listing?.rooms) ? listing.rooms : [];
  const seen = new Set();
  const rows = [];
  for (const r of rooms) {
    if (rows.length === MAX_ROWS) break;
    if (r === null || typeof r !== 'object' || !isRoomName(r.name) || seen.has(r.name)) continue;
    seen.add(r.name);
    const row = { name: r.name, href: roomPath(r.name), clients: count(r.clients), cells: count(r.cells) };
    row.detail = `${people(row.clients)} \u00b7 ${cells(row.cells)}`;
    row.current = r.name === current;
    rows.push(row);
  }
  return rows;
}

/** "3 rooms · 5 people" for the rows; "No rooms open" when there are none. */
export function roomSummary(rows) {
  if (rows.length === 0) return 'No rooms open';
  const n = rows.length === MAX_ROWS ? `${MAX_ROWS}+` : number(rows.length);
  const total = rows.reduce((sum, r) => sum + r.clients, 0);
  return `${n} ${rows.length === 1 ? 'room' : 'rooms'} \u00b7 ${people(total)}`;
}
