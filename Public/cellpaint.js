// Each cell's colour: its own `color`, else its `group`'s (groups take golden-angle hues in
// their sorted order, the same in every viewer), else its owner's as before (palette.js).
// With groups the legend lists groups, else owners. Pure, no DOM.
import { ownerSlots } from './owners.js';
import { clientRGB, groupRGB, hexRGB, paletteOf } from './palette.js';

const numeric = /^-?\d+(\.\d+)?$/;
// "2" before "10"; names as strings otherwise
const byName = (a, b) => (numeric.test(a) && numeric.test(b) ? Number(a) - Number(b) : a.localeCompare(b));

/**
 * Slots, palette and legend of cells `ids`. `ownerOfId`: id -> client or null; `cells`:
 * Map id -> {color, group, …} (celldata.js). Returns {slots (Uint16Array), palette, legend:
 * {by: 'group' | 'owner', rows: [{key, name, count, css, client}] (most cells first)}}.
 */
export function paintCells(ids, ownerOfId, cells, scheme = 'light') {
  const owned = ownerSlots(ids, ownerOfId);
  if (cells.size === 0) {
    const palette = paletteOf(owned.owners.map((o) => clientRGB(o, scheme)));
    const rows = owned.owners.map((client, s) => ({ key: `owner:${client}`, name: client, client, count: owned.counts[s], css: palette.css[s] }));
    return { slots: owned.slots, palette, legend: { by: 'owner', rows: sortRows(rows) } };
  }
  const groups = new Set();
  for (const d of cells.values()) if (d.group !== undefined && !d.color) groups.add(d.group);
  const groupIndex = new Map([...groups].sort(byName).map((g, i) => [g, i]));
  // slots: the owners' first (as ownerSlots numbered them), then groups and colours as met;
  // a slot's key ('owner:c1', 'group:g', 'color:#abc') made once, when the slot is
  const rgbs = owned.owners.map((o) => clientRGB(o, scheme));
  const keys = owned.owners.map((o) => `owner:${o}`);
  const counts = new Array(rgbs.length).fill(0);
  const slotOfColor = new Map();
  const slotOfGroup = new Map();
  const newSlot = (key, rgb) => {
    if (rgbs.length >= 0xffff) return 0;
    keys.push(key);
    rgbs.push(rgb);
    counts.push(0);
    return rgbs.length - 1;
  };
  const slots = new Uint16Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const d = cells.get(ids[i]);
    let s = owned.slots[i];
    if (d !== undefined) {
      if (d.color) {
        s = slotOfColor.get(d.color);
        if (s === undefined) {
          s = newSlot(`color:${d.color}`, hexRGB(d.color) || [128, 128, 128]);
          slotOfColor.set(d.color, s);
        }
      } else if (d.group !== undefined) {
        s = slotOfGroup.get(d.group);
        if (s === undefined) {
          s = newSlot(`group:${d.group}`, groupRGB(groupIndex.get(d.group), scheme));
          slotOfGroup.set(d.group, s);
        }
      }
    }
    slots[i] = s;
    counts[s]++;
  }
  const palette = paletteOf(rgbs);
  if (groups.size === 0) {
    const rows = keys.map((key, s) => ({ key, name: key.startsWith('owner:') ? owned.owners[s] : key.slice(6), client: key.startsWith('owner:') ? owned.owners[s] : undefined, count: counts[s], css: palette.css[s] }));
    return { slots, palette, legend: { by: 'owner', rows: sortRows(rows.filter((r) => r.key.startsWith('owner:'))) } };
  }
  const rows = [];
  let other = 0;
  keys.forEach((key, s) => {
    if (key.startsWith('group:')) rows.push({ key, name: key.slice(6), count: counts[s], css: palette.css[s] });
    else other += counts[s];
  });
  const sorted = rows.filter((r) => r.count > 0).sort((a, b) => byName(a.name, b.name));
  if (other > 0) sorted.push({ key: 'other', name: 'no group', count: other, css: null });
  return { slots, palette, legend: { by: 'group', rows: sorted } };
}

function sortRows(rows) {
  return rows.filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count || String(a.name).localeCompare(String(b.name)));
}
