// The status line: connection, my client id, clients, cells, step time, settled/moving/unfolding, "not
// saved" while the server cannot write the room's state, as
// the state has them. Each value lives in a child with data-field=<name>; the same values
// are mirrored on <body data-*> so tests and tools can read them without parsing text.
import { formatNumber } from './params.js';

export function createStatus(root, state) {
  const fields = new Map();
  for (const el of root.querySelectorAll('[data-field]')) fields.set(el.dataset.field, el);
  const units = new Map();
  for (const el of root.querySelectorAll('[data-unit]')) units.set(el.dataset.unit, el);
  const last = {};

  // "1 client", "2 clients"
  function unit(name, n, one) {
    const el = units.get(name);
    const text = Number(n) === 1 ? one : `${one}s`;
    if (el && el.textContent !== text) el.textContent = text;
  }

  function set(name, text, data = text) {
    if (last[name] === text) return;
    last[name] = text;
    const el = fields.get(name);
    if (el) el.textContent = text;
    document.body.dataset[name] = String(data);
  }

  function render() {
    const { connection, client, clients, settled } = state;
    const cells = state.ids.length;
    const tickMs = state.stats?.tickMs;
    set('connection', connection);
    root.dataset.connection = connection;
    set('client', client || '–', client || '');
    set('clients', String(clients));
    unit('clients', clients, 'client');
    set('cells', String(cells));
    unit('cells', cells, 'cell');
    set('tickMs', Number.isFinite(tickMs) ? formatNumber(Math.round(tickMs * 100) / 100) : '–', tickMs ?? '');
    // paused first: a paused layout neither moves nor settles until it is resumed
    const motion = state.params.paused === true ? 'paused' : settled ? 'settled' : state.unfolding ? 'unfolding' : 'moving';
    set('motion', motion);
    root.dataset.motion = motion;
    set('saving', state.unsaved ? 'not saved' : '', state.unsaved);
  }

  for (const type of ['connection', 'clients', 'membership', 'settled', 'unsaved', 'stats', 'physics', 'params']) state.on(type, render);
  render();
}
