// The status line: connection, my client id, clients, cells, step time, settled/moving.
// Each value lives in a child with data-field=<name>; the same values are mirrored on
// <body data-*> so tests and tools can read them without parsing text.
import { formatNumber } from './params.js';

const LABEL = { connecting: 'connecting', open: 'connecting', connected: 'connected', reconnecting: 'reconnecting' };

export function createStatus(root) {
  const fields = new Map();
  for (const el of root.querySelectorAll('[data-field]')) fields.set(el.dataset.field, el);
  const units = new Map();
  for (const el of root.querySelectorAll('[data-unit]')) units.set(el.dataset.unit, el);
  const last = {};

  // "1 client", "2 clients"
  function unit(name, n, one) {
    const el = units.get(name);
    if (el) el.textContent = Number(n) === 1 ? one : `${one}s`;
  }

  function set(name, text, data = text) {
    if (last[name] === text) return;
    last[name] = text;
    const el = fields.get(name);
    if (el) el.textContent = text;
    document.body.dataset[name] = String(data);
  }

  return {
    /** Update from {connection, client, clients, cells, tickMs, settled}. */
    update({ connection, client, clients, cells, tickMs, settled }) {
      if (connection !== undefined) {
        const label = LABEL[connection] || connection;
        set('connection', label);
        root.dataset.connection = label;
      }
      if (client !== undefined) set('client', client || '–', client || '');
      if (clients !== undefined) {
        set('clients', String(clients));
        unit('clients', clients, 'client');
      }
      if (cells !== undefined) {
        set('cells', String(cells));
        unit('cells', cells, 'cell');
      }
      if (tickMs !== undefined) set('tickMs', Number.isFinite(tickMs) ? formatNumber(Math.round(tickMs * 100) / 100) : '–', tickMs ?? '');
      if (settled !== undefined) {
        const motion = settled ? 'settled' : 'moving';
        set('motion', motion);
        root.dataset.motion = motion;
      }
    },
  };
}
