// Smooth motion from frames that arrive at the server's step rate (often 20 Hz): frames are
// kept with their arrival times and drawn at `now - delay`, the delay about two arrival
// intervals so a late frame still finds its successor. Positions are interpolated between
// the two frames around that time when they share a membership (the same `ids` array: the
// state replaces it on every change), and the newer one is shown when the membership
// differs. Never extrapolates: past the newest frame, the newest is shown. Pure, no DOM;
// times are milliseconds from any clock.

const clamp = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);

export function createInterpolator({ minDelay = 20, maxDelay = 400, defaultInterval = 50 } = {}) {
  let frames = []; // {t, ids, xy, count}, oldest first
  const pool = []; // spare position buffers
  const intervals = []; // recent arrival intervals (ms), gaps left out
  let delay = 2 * defaultInterval;
  let clock = null; // playback time of the last sample
  let lastNow = null;
  let out = new Float64Array(0);
  const result = { ids: [], xy: out, count: 0, moving: false };

  // the mean of the recent intervals that are not gaps (over 3x their median): robust to a
  // pause, yet a burst (two frames at once after a busy moment) averages out
  function interval() {
    if (intervals.length === 0) return defaultInterval;
    const sorted = [...intervals].sort((x, y) => x - y);
    const cap = 3 * sorted[sorted.length >> 1];
    let sum = 0;
    let n = 0;
    for (const d of intervals) {
      if (d <= cap) {
        sum += d;
        n++;
      }
    }
    return n && sum > 0 ? sum / n : defaultInterval;
  }

  function buffer(n) {
    for (let i = 0; i < pool.length; i++) {
      if (pool[i].length === n) return pool.splice(i, 1)[0];
    }
    return new Float64Array(n);
  }

  function release(f) {
    if (pool.length < 4) pool.push(f.xy);
  }

  return {
    /** A frame arrived at time t: membership `ids` (compared by identity), positions xy. */
    push(t, ids, xy) {
      const count = ids.length;
      const copy = buffer(2 * count);
      for (let i = 0; i < 2 * count; i++) copy[i] = xy[i];
      const last = frames[frames.length - 1];
      if (last) {
        const d = t - last.t;
        const est = interval();
        if (d > Math.max(3 * est, 250)) {
          // the layout was still (settled, paused): start moving from the last frame now
          // instead of crawling across the whole pause
          last.t = t - est;
        }
        if (d >= 0) {
          intervals.push(Math.min(d, 5000));
          if (intervals.length > 15) intervals.shift();
        }
      }
      frames.push({ t, ids, xy: copy, count });
      delay = clamp(2 * interval(), minDelay, maxDelay);
    },

    /**
     * What to draw at time `now`: {ids, xy, count, moving} (moving while newer frames are
     * still ahead). The object and its xy are reused by the next call.
     */
    sample(now) {
      if (frames.length === 0) {
        result.ids = [];
        result.count = 0;
        result.moving = false;
        return result;
      }
      // The playback clock runs with real time, nudged (at most 10%) toward now - delay so
      // a changing delay neither jumps nor reverses the motion; far off, it is reset.
      const want = now - delay;
      if (clock === null || lastNow === null || now < lastNow) {
        clock = want;
      } else {
        const dt = now - lastNow;
        const next = clock + dt;
        const err = want - next;
        clock = Math.abs(err) > 250 ? Math.max(clock, want) : next + clamp(err, -0.1 * dt, 0.1 * dt);
      }
      lastNow = now;

      let ai = frames.length - 1;
      while (ai > 0 && frames[ai].t > clock) ai--;
      if (ai > 0) {
        for (let i = 0; i < ai; i++) release(frames[i]);
        frames = frames.slice(ai);
        ai = 0;
      }
      const a = frames[0];
      const b = a.t <= clock ? frames[1] : undefined;
      let show = a;
      let u = 0;
      if (b) {
        if (b.ids === a.ids && b.count === a.count) u = clamp((clock - a.t) / Math.max(1e-6, b.t - a.t), 0, 1);
        else show = b; // membership changed: snap to the newer one
      }
      const n = 2 * show.count;
      if (out.length < n) out = new Float64Array(Math.max(n, Math.ceil(out.length * 1.5)));
      if (b && show === a && u > 0) {
        const p = a.xy;
        const q = b.xy;
        for (let i = 0; i < n; i++) out[i] = p[i] + (q[i] - p[i]) * u;
      } else {
        out.set(show.xy.subarray(0, n));
      }
      result.ids = show.ids;
      result.xy = out;
      result.count = show.count;
      result.moving = frames.length > 1; // a newer frame is still ahead
      return result;
    },

    /** The current delay and mean arrival interval (ms), and frames held. */
    get delay() {
      return delay;
    },
    get interval() {
      return interval();
    },
    get held() {
      return frames.length;
    },
  };
}

/**
 * The largest coordinate change between positions a and b over the first n values
 * (Infinity when one is not a number): a draw is only worth it when something moved a
 * visible amount.
 */
export function maxDelta(a, b, n) {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) {
      if (d !== d) return Infinity;
      m = d;
    }
  }
  return m;
}
