// The parameter inputs and the action buttons of the panel.
// - input[name=<param>] shows the server's value (hello.params, every params event) unless
//   the user is dragging or editing it; changing it sends {"type":"params", <name>: value},
//   throttled to 20 messages/s while dragging, the final value always sent.
// - input[data-for=<param>] beside a slider shows its value as a number box, and typing a
//   value there sets it too.
// - button[data-action]: add / remove (input[name=count] cells), clear, pause (toggles paused).
// They follow the state: its params and limits, enabled only while connected, and a
// message the server rejected is no longer taken as sent.
import { PARAMS, formatParam, parseParam } from './params.js';
import { throttle } from './throttle.js';

const SEND_INTERVAL_MS = 50;

export function createControls(root, state, { send }) {
  let params = {};
  let maxAdd = 1000;
  const lastSent = new Map();
  const busy = new Set(); // names whose input the user holds right now
  const controls = new Map(); // name -> {input, box, throttled}

  // Sends a value unless it is the one this page sent last (and the server has not reported
  // another since): a slider's last input event and its change event carry the same value.
  function sendParam(name, value) {
    if (value === undefined || lastSent.get(name) === value) return;
    if (send({ type: 'params', [name]: value })) lastSent.set(name, value);
  }

  function show(name, value) {
    const c = controls.get(name);
    if (!c || value === undefined || value === null) return;
    if (c.input.type === 'checkbox') c.input.checked = !!value;
    else c.input.value = String(value);
    if (c.box) c.box.value = formatParam(name, value);
  }

  for (const spec of PARAMS) {
    const input = root.querySelector(`input[name="${spec.name}"]`);
    if (!input) continue;
    const box = root.querySelector(`input[data-for="${spec.name}"]`);
    const throttled = throttle((v) => sendParam(spec.name, v), SEND_INTERVAL_MS);
    controls.set(spec.name, { input, box, throttled });
    const read = () => parseParam(spec.name, input.type === 'checkbox' ? input.checked : input.value);

    if (input.type === 'checkbox') {
      input.addEventListener('change', () => sendParam(spec.name, read()));
      continue;
    }
    if (input.type === 'range') {
      input.addEventListener('pointerdown', () => {
        busy.add(spec.name);
        const release = () => {
          window.removeEventListener('pointerup', release);
          window.removeEventListener('pointercancel', release);
          if (!busy.delete(spec.name)) return;
          throttled.flush(read()); // dragging ends: the final value goes out
        };
        window.addEventListener('pointerup', release);
        window.addEventListener('pointercancel', release);
      });
      input.addEventListener('input', () => {
        const v = read();
        if (box && v !== undefined) box.value = formatParam(spec.name, v);
        throttled.call(v);
      });
    } else {
      // a number box: edits are sent when committed (change: Enter, blur, spinner)
      input.addEventListener('input', () => busy.add(spec.name));
      input.addEventListener('blur', () => {
        busy.delete(spec.name);
        show(spec.name, params[spec.name]); // an unusable or unsent edit goes back
      });
    }
    input.addEventListener('change', () => {
      const v = read();
      throttled.cancel();
      if (v === undefined) return; // still being edited (emptied): blur puts it back
      busy.delete(spec.name);
      sendParam(spec.name, v);
    });

    if (box) {
      box.addEventListener('input', () => busy.add(spec.name));
      box.addEventListener('blur', () => {
        busy.delete(spec.name);
        show(spec.name, params[spec.name]);
      });
      box.addEventListener('change', () => {
        const v = parseParam(spec.name, box.value);
        if (v === undefined) return; // still being edited (emptied): blur puts it back
        busy.delete(spec.name);
        input.value = String(v);
        box.value = formatParam(spec.name, v);
        sendParam(spec.name, v);
      });
    }
  }

  const countInput = root.querySelector('input[name="count"]');
  // the count for add/remove: the input's value clamped to [1, maxAdd], 10 when empty
  function count() {
    const n = Math.round(Number(countInput?.value));
    if (!countInput || countInput.value.trim() === '' || !Number.isFinite(n)) return 10;
    return Math.min(Math.max(n, 1), maxAdd);
  }
  countInput?.addEventListener('change', () => {
    if (countInput.value.trim() !== '' && String(count()) !== countInput.value) countInput.value = String(count());
  });

  const pauseButton = root.querySelector('[data-action="pause"]');
  function showPaused() {
    if (!pauseButton) return;
    const paused = !!params.paused;
    pauseButton.textContent = paused ? 'Resume' : 'Pause';
    pauseButton.setAttribute('aria-pressed', String(paused));
  }

  root.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-action]');
    if (!button || !root.contains(button)) return;
    switch (button.dataset.action) {
      case 'add':
        send({ type: 'add', count: count() });
        break;
      case 'remove':
        send({ type: 'remove', count: count() });
        break;
      case 'clear':
        send({ type: 'clear' });
        break;
      case 'pause':
        send({ type: 'params', paused: !params.paused });
        break;
      default:
    }
  });

  /** The server's parameters (the whole set, or the changed part). */
  function setParams(next) {
    params = { ...params, ...next };
    for (const [name, value] of Object.entries(next)) {
      if (lastSent.has(name) && lastSent.get(name) !== value) lastSent.delete(name);
      if (!busy.has(name)) show(name, value);
    }
    showPaused();
  }
  function setLimits(limits) {
    const m = Number(limits?.maxAddPerMessage);
    maxAdd = Number.isFinite(m) && m >= 1 ? Math.min(1000, Math.floor(m)) : 1000;
    if (countInput) countInput.max = String(maxAdd);
  }
  /** Enable the controls only while connected. */
  function setEnabled(on) {
    root.toggleAttribute('data-offline', !on);
    for (const b of root.querySelectorAll('button[data-action]')) b.disabled = !on;
  }

  state.on('params', () => setParams(state.params));
  state.on('limits', () => setLimits(state.limits));
  state.on('connection', () => setEnabled(state.connection === 'connected'));
  // forget what was sent: the server does not hold it
  state.on('rejected', () => lastSent.clear());
  setEnabled(state.connection === 'connected');
}
