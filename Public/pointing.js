// This page's pointer: "look here" for everyone in the room. The page sends `point` with the
// cell (or null to stop) and the name the person chose (kept in this browser); the server
// tells everyone, this page too, in `pointer` messages (apply.js keeps them in
// state.pointers; focus.js draws them). A pointer ends with the connection.
const NAME_KEY = 'forcelayout.name';
export const NAME_MAX = 32;

/** A display name as the server takes it: control characters out, trimmed, at most NAME_MAX. */
export function cleanName(text) {
  // eslint-disable-next-line no-control-regex
  const name = String(text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return [...name].slice(0, NAME_MAX).join('').trim();
}

export function createPointing({ state, send, storage = null }) {
  let name = '';
  try {
    name = cleanName(storage?.getItem(NAME_KEY) ?? '');
  } catch { /* storage refused: no name kept */ }

  const mine = () => (state.client === null ? null : state.pointers.get(state.client) ?? null);

  function message(id) {
    const msg = { type: 'point', id };
    if (id !== null && name !== '') msg.name = name;
    return msg;
  }

  const point = (id) => send(message(id));
  const stop = () => send(message(null));

  return {
    get name() {
      return name;
    },
    /** The name others see on this page's pointer ('' for the client id). */
    setName(text) {
      name = cleanName(text);
      try {
        if (name) storage?.setItem(NAME_KEY, name);
        else storage?.removeItem(NAME_KEY);
      } catch { /* not kept */ }
      const now = mine();
      if (now) send(message(now.id));
    },
    /** The cell this page points at, or null. */
    get pointingAt() {
      return mine()?.id ?? null;
    },
    /** Point at cell `id`. */
    point,
    stop,
    /** Point at `id`, or stop if this page points at it already (a function of its own: no `this`). */
    toggle(id) {
      if (id === null || id === undefined) return false;
      return mine()?.id === id ? stop() : point(id);
    },
  };
}
