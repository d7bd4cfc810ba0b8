// The `?perf` overlay: the figures of window.forcelayout.perf(), refreshed four times a second.
const ROWS = [
  ['fps', 'render fps', (v) => v.toFixed(0)],
  ['framesPerSecond', 'frames/s in', (v) => v.toFixed(1)],
  ['kbPerSecond', 'KB/s in', (v) => v.toFixed(0)],
  ['tickMs', 'server step ms', (v) => v.toFixed(2)],
  ['drawMs', 'draw ms', (v) => v.toFixed(2)],
  ['linksMs', '· links ms', (v) => v.toFixed(2)],
  ['linksKept', '· links kept', (v) => `${Math.round(v * 100)} %`], // share of draws that reused them (linklayer.js)
  ['cellsMs', '· cells ms', (v) => v.toFixed(2)],
  ['putMs', '· put ms', (v) => v.toFixed(2)],
  ['labelsMs', '· labels ms', (v) => v.toFixed(2)],
  ['decodeMs', 'decode ms', (v) => v.toFixed(3)],
  ['cells', 'cells', (v) => v.toLocaleString('en-US')],
];

export function createPerfPanel(el, read, { every = 250 } = {}) {
  const values = new Map();
  for (const [key, label] of ROWS) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.dataset.perf = key;
    values.set(key, dd);
    el.append(dt, dd);
  }
  el.hidden = false;
  const update = () => {
    const p = read();
    for (const [key, , format] of ROWS) {
      const v = p[key];
      values.get(key).textContent = Number.isFinite(v) ? format(v) : '–';
    }
  };
  update();
  return setInterval(update, every);
}
