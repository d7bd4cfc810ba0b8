// Asking again and again, only while someone looks: from start() until stop(), load() is
// called at once and then `interval` ms after each call has settled (never two at a time),
// and each result goes to onResult as {ok: true, value} or {ok: false, error}. A call still
// under way at stop() is let go: its result is dropped. Pure: the timers are the global ones
// unless given.

export function createPoller(load, onResult, { interval = 3000, timers = globalThis } = {}) {
  let running = false;
  let round = 0; // which start() the call under way belongs to
  let timer = null;

  async function tick(mine) {
    timer = null;
    let result;
    try {
      result = { ok: true, value: await load() };
    } catch (error) {
      result = { ok: false, error };
    }
    if (!running || mine !== round) return;
    onResult(result);
    if (running && mine === round) timer = timers.setTimeout(() => tick(mine), interval);
  }

  return {
    /** Start asking (now); nothing if already started. */
    start() {
      if (running) return;
      running = true;
      round++;
      tick(round);
    },
    /** Stop asking; a result still to come is dropped. */
    stop() {
      running = false;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
    get running() {
      return running;
    },
  };
}
