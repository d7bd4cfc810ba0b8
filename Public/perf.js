// Rolling figures for the performance overlay: events (or amounts) per second and the mean
// of a value over the last `window` ms. Pure, no DOM; times are milliseconds.

function createWindow(windowMs) {
  const times = [];
  const values = [];
  let head = 0;
  let start = null; // time of the first sample ever: a young window divides by its age
  return {
    add(now, value) {
      if (start === null) start = now;
      times.push(now);
      values.push(value);
    },
    /** Drops what fell out of the window; returns [sum, count, span ms]. */
    read(now) {
      while (head < times.length && times[head] <= now - windowMs) head++;
      if (head > 256 && head * 2 > times.length) {
        times.splice(0, head);
        values.splice(0, head);
        head = 0;
      }
      let sum = 0;
      for (let i = head; i < values.length; i++) sum += values[i];
      const span = start === null ? windowMs : Math.min(windowMs, Math.max(250, now - start));
      return [sum, times.length - head, span];
    },
  };
}

/** Amounts per second over the last `windowMs` (draws, frames, bytes). */
export function createRate(windowMs = 2000) {
  const w = createWindow(windowMs);
  return {
    add(now, amount = 1) {
      w.add(now, amount);
    },
    rate(now) {
      const [sum, , span] = w.read(now);
      return (sum * 1000) / span;
    },
  };
}

/** The mean of the values added in the last `windowMs`; null when there are none. */
export function createMean(windowMs = 2000) {
  const w = createWindow(windowMs);
  return {
    add(now, value) {
      if (Number.isFinite(value)) w.add(now, value);
    },
    mean(now) {
      const [sum, count] = w.read(now);
      return count ? sum / count : null;
    },
  };
}

// The parts of a draw (render.js's lastDraw), each a mean of its own: a part a draw did not
// time (null: the cells drawn as arcs) leaves its mean alone.
const PARTS = ['linksMs', 'cellsMs', 'putMs', 'labelsMs', 'linksKept'];

/**
 * The page's figures (the `?perf` panel, window.forcelayout.perf()): draws and server frames
 * per second, KB received per second, the mean draw time, its split (linksMs, cellsMs,
 * putMs, labelsMs: null until a draw timed them) and the mean decode time of a binary frame
 * (null on v1: JSON frames are parsed, not decoded), over the last 2 s; read(state) adds the
 * server's step time and the cell count.
 */
export function createPerf(now = () => performance.now()) {
  const draws = createRate(2000);
  const frames = createRate(2000);
  const bytes = createRate(2000);
  const drawMs = createMean(2000);
  const decodeMs = createMean(2000);
  const parts = PARTS.map(() => createMean(2000));
  return {
    /** A draw of `ms`; `split` ({linksMs, cellsMs, putMs, labelsMs}, any of them) its parts. */
    drew(ms, split = null) {
      const t = now();
      draws.add(t);
      drawMs.add(t, ms);
      if (split) PARTS.forEach((key, i) => parts[i].add(t, split[key]));
    },
    frame() {
      frames.add(now());
    },
    decoded(ms) {
      decodeMs.add(now(), ms);
    },
    received(n) {
      bytes.add(now(), n);
    },
    read(state) {
      const t = now();
      const split = Object.fromEntries(PARTS.map((key, i) => [key, parts[i].mean(t)]));
      return {
        fps: draws.rate(t),
        framesPerSecond: frames.rate(t),
        kbPerSecond: bytes.rate(t) / 1000,
        tickMs: Number.isFinite(state.stats?.tickMs) ? state.stats.tickMs : null,
        drawMs: drawMs.mean(t),
        ...split,
        decodeMs: decodeMs.mean(t),
        cells: state.ids.length,
      };
    },
  };
}
