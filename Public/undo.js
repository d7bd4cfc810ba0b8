// Undo in the panel: the Undo button (and Ctrl+Z / Cmd+Z, main.js) asks the server to undo
// this page's own last change, one at a time (`{"type":"undo"}`); the server says what it can
// undo in its `undoable` message (state.undoable: {count, next}), which the button's title
// tells ("Undo add 10 cells"), and refuses with an `error` when it cannot (shown as every
// error is). A viewer changes nothing, so it has nothing to undo; while the page shows the
// past the button waits (what would be undone is in the live room, not the one shown).
import { mayChange } from './state.js';

export function createUndo(button, state, { send, say = () => {} }) {
  function render() {
    const { undoable } = state;
    const viewer = state.role === 'viewer';
    button.hidden = viewer;
    const count = undoable?.count ?? 0;
    button.disabled = !mayChange(state) || state.connection !== 'connected' || count === 0;
    button.dataset.count = String(count);
    let title = 'Nothing of yours to undo';
    if (state.moment !== null) title = 'Go live to undo';
    else if (count > 0) title = `Undo ${undoable.next ?? 'your last change'}${count > 1 ? ` (${count} changes of yours can be undone)` : ''}`;
    button.title = `${title} (Ctrl+Z)`;
    button.setAttribute('aria-label', count > 0 && undoable.next ? `Undo ${undoable.next}` : 'Undo');
  }

  /** Undo this page's last change (the button, Ctrl+Z). */
  function undo() {
    if (state.role === 'viewer') return say('View only: you have made no changes to undo');
    if (state.moment !== null) return say('You are viewing the past: go live to undo');
    send({ type: 'undo' });
  }

  button.addEventListener('click', undo);
  for (const type of ['undoable', 'access', 'connection', 'moment']) state.on(type, render);
  render();
  return { undo };
}
