// The page's one animation loop: anything that changed what is drawn wakes it, and it runs
// its step once per display frame for as long as the step returns true (something still
// moves). Asleep, it costs nothing. `request` is requestAnimationFrame (tests pass their own).

export function createFrames({ request = (fn) => requestAnimationFrame(fn) } = {}) {
  let pending = false;
  let step = () => false;
  function run(t) {
    pending = false;
    if (step(t)) wake();
  }
  function wake() {
    if (pending) return;
    pending = true;
    request(run);
  }
  return {
    wake,
    /** What each frame does: step(t) -> true to run again at the next frame. */
    drive(fn) {
      step = fn;
    },
  };
}
