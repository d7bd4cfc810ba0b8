// Typed change events: listeners by type, from a fixed list of types (subscribing to a type
// that is not on it throws at once, rather than never hearing anything). A listener that
// throws does not keep the others from hearing the change: its error is rethrown on its own.
// Pure, no DOM.

export function createEmitter(types) {
  const listeners = new Map(types.map((type) => [type, []]));
  function of(type) {
    const list = listeners.get(type);
    if (!list) throw new Error(`unknown change event: ${type}`);
    return list;
  }
  return {
    on(type, fn) {
      of(type).push(fn);
    },
    emit(type, payload) {
      for (const fn of of(type)) {
        try {
          fn(payload);
        } catch (err) {
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    },
  };
}
