// Keyboard shortcuts of the page, as a pure mapping from a key to an action, so the rules
// about where they apply are testable without a DOM:
//   + / =   zoom in                          -   zoom out
//   a       add cells (the Count box)        space   pause / resume
//   f       fit the layout (auto camera)     F   fit the selection
//   / or Ctrl+K   find a cell                Esc   clear the highlight
//   p       point at the selected cell       ← ↓ previous cell, → ↑ next (as the strip)
//   h       the room's history (timeline)    r   record a video of the canvas (again: stop)
//   Ctrl+Z / Cmd+Z   undo my last change
// No key removes cells: a key pressed by mistake (people expect `-` to zoom out) must not take
// cells away from everyone; Remove, Clear and Restore this moment are buttons, and ask first.
// Undo takes back only this page's own last change, one at a time, as Ctrl+Z does everywhere.
// Nothing applies with Ctrl, Alt or Meta held (browser shortcuts) but Ctrl+K and Ctrl+Z, while
// typing in a text or number field (Ctrl+Z there undoes the typing), or on the strip (it has
// its own keys); keys a focused control uses itself (arrows on a slider, the timeline's too,
// space on a button or checkbox) stay with it.

const ACTIONS = {
  '+': 'zoomIn',
  '=': 'zoomIn',
  '-': 'zoomOut',
  _: 'zoomOut',
  a: 'add',
  A: 'add',
  ' ': 'pause',
  Spacebar: 'pause',
  f: 'fit',
  F: 'fitSelection',
  '/': 'find',
  Escape: 'clearFocus',
  p: 'point',
  P: 'point',
  ArrowLeft: 'prev',
  ArrowDown: 'prev',
  ArrowRight: 'next',
  ArrowUp: 'next',
  h: 'history',
  H: 'history',
  r: 'record',
  R: 'record',
};

/**
 * The action of a keydown ({key, ctrlKey, altKey, metaKey}) whose target is of `kind`:
 * 'text' (text-like input, textarea, select, editable), 'strip', 'control' (range, checkbox,
 * radio), 'button', or anything else. Returns null when the page should not act.
 */
export function keyAction(e, kind = 'other') {
  if (!e) return null;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'k' || e.key === 'K')) return 'find';
  // Ctrl+Shift+Z is redo elsewhere: not this
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === 'z' || e.key === 'Z')) return kind === 'text' ? null : 'undo';
  if (e.ctrlKey || e.altKey || e.metaKey) return null;
  const action = Object.hasOwn(ACTIONS, e.key) ? ACTIONS[e.key] : null;
  if (!action || kind === 'text' || kind === 'strip') return null;
  if (kind === 'control' && (action === 'prev' || action === 'next' || action === 'pause')) return null;
  if (kind === 'button' && action === 'pause') return null;
  return action;
}

const TEXT_INPUTS = new Set(['text', 'number', 'search', 'email', 'url', 'tel', 'password', 'date', 'time', 'datetime-local', 'month', 'week']);

/** The kind of a focused element for keyAction, from its tag, type and role. */
export function targetKind({ tagName = '', type = '', isContentEditable = false, id = '', role = '' } = {}) {
  const tag = String(tagName).toUpperCase();
  if (id === 'strip') return 'strip';
  if (role === 'slider') return 'control'; // the timeline's handle: its arrows are its own
  if (isContentEditable || tag === 'TEXTAREA' || tag === 'SELECT') return 'text';
  if (tag === 'INPUT') return TEXT_INPUTS.has(String(type).toLowerCase()) || type === '' ? 'text' : 'control';
  if (tag === 'BUTTON') return 'button';
  return 'other';
}
