// A throttle for messages sent while a control is being dragged: at most one call per
// `interval` ms, the first at once, the latest held back until the interval is over.
// Pure (the clock and the timer are injectable), so node can test it.

export function throttle(fn, interval, { now = () => Date.now(), setTimer = setTimeout, clearTimer = clearTimeout } = {}) {
  let last = -Infinity;
  let timer = null;
  let pending = null;

  const fire = (args) => {
    last = now();
    pending = null;
    fn(...args);
  };

  return {
    /** Call fn now if the interval has passed, else once at its end with the latest args. */
    call(...args) {
      const wait = last + interval - now();
      if (wait <= 0 && timer === null) {
        fire(args);
        return;
      }
      pending = args;
      if (timer === null) {
        timer = setTimer(() => {
          timer = null;
          if (pending) fire(pending);
        }, Math.max(0, wait));
      }
    },
    /** Call fn now with these args (the final value), dropping anything held back. */
    flush(...args) {
      this.cancel();
      fire(args);
    },
    /** Drop anything held back. */
    cancel() {
      if (timer !== null) clearTimer(timer);
      timer = null;
      pending = null;
    },
  };
}
