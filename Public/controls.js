// The parameter inputs and the action buttons of the panel.
// - The parameter inputs are built in form#params from the server's specs (hello.paramSpecs,
//   controlmodel.js says which control each gets), once from the first hello and again only
//   when a hello brings other specs (a reconnect to a newer server); none before.
// - input[name=<param>] shows the server's value (hello.params, every params event) unless
//   the user is dragging or editing it; changing it sends {"type":"params", <name>: value},
//   throttled to 20 messages/s while dragging, the final value always sent.
// - input[data-for=<param>] beside a slider shows its value as a number box, and typing a
//   value there sets it too. An emptied or unsent box shows the server's value again on blur.
// - select[name=<param>] (a choice's menu) lists its options; picking one sends it at once.
// - button[data-action]: add / remove (input[name=count] cells), clear, pause (toggles paused).
// They follow the state: its params and limits, enabled only while connected and only for a
// page that may change the room (a viewer's are disabled: links.js; so are all while the page
// shows the past: rewind.js), and a
// message the server rejected is no longer taken as sent (a toggle or a menu the user is not
// holding shows the server's value again).
import { controlModel } from './controlmodel.js';
import { formatParam, parseValue, snapToSpec } from './params.js';
import { throttle } from './throttle.js';

const SEND_INTERVAL_MS = 50;

function element(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

// The elements of one control description (controlmodel.js): {row, input, box}. Toggles go
// into `checks`, the row of checkboxes; a menu's `input` is its <select>.
function buildControl(c, checks) {
  const title = c.description || undefined;
  if (c.control === 'toggle') {
    const input = element('input', { type: 'checkbox', name: c.name, title });
    const label = element('label', { title }, [input, ` ${c.label}`]);
    checks.append(label);
    return { input, box: null, label };
  }
  const name = element('span', {}, [c.label]);
  if (c.control === 'menu') {
    const input = element('select', { name: c.name, title }, c.options.map((o) => element('option', { value: o }, [o])));
    return { row: element('label', { class: 'param menu', title }, [name, input]), input, box: null };
  }
  if (c.control === 'slider') {
    const input = element('input', { type: 'range', name: c.name, ...c.range, title });
    const { label, ...range } = c.box;
    const box = element('input', { type: 'number', class: 'value', 'data-for': c.name, ...range, 'aria-label': label, title });
    return { row: element('label', { class: 'param', title }, [name, input, box]), input, box };
  }
  const input = element('input', { type: 'number', class: 'value', name: c.name, ...c.box, title });
  return { row: element('label', { class: 'param', title }, [name, element('span', { class: 'spacer' }), input]), input, box: null };
}

// confirmClear(cells): asked before Clear removes a room's cells for everyone (true: go on)
export function createControls(root, state, { send, confirmClear = () => true }) {
  let params = {};
  let maxAdd = 1000;
  const lastSent = new Map();
  const busy = new Set(); // names whose input the user holds right now
  let controls = new Map(); // name -> {spec, input, box, throttled}
  const form = root.querySelector('#params') ?? root.querySelector('form');

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

  // the events of one control's inputs
  function wire(name, { spec, input, box, throttled }) {
    const read = () => (input.type === 'checkbox' ? parseValue(spec, input.checked)
      : input.type === 'range' ? snapToSpec(spec, Number(input.value)) : parseValue(spec, input.value));

    if (input.type === 'checkbox') {
      input.addEventListener('change', () => sendParam(name, read()));
      return;
    }
    if (input.tagName === 'SELECT') {
      input.addEventListener('change', () => {
        const v = read();
        if (v === undefined) show(name, params[name]); // not one of the server's options: nothing to send
        else sendParam(name, v);
      });
      return;
    }
    if (input.type === 'range') {
      input.addEventListener('pointerdown', () => {
        busy.add(name);
        const release = () => {
          window.removeEventListener('pointerup', release);
          window.removeEventListener('pointercancel', release);
          if (controls.get(name)?.input !== input || !busy.delete(name)) return;
          throttled.flush(read()); // dragging ends: the final value goes out
        };
        window.addEventListener('pointerup', release);
        window.addEventListener('pointercancel', release);
      });
      input.addEventListener('input', () => {
        const v = read();
        if (box && v !== undefined) box.value = formatParam(name, v);
        throttled.call(v);
      });
    } else {
      // a number box: edits are sent when committed (change: Enter, blur, spinner)
      input.addEventListener('input', () => busy.add(name));
      input.addEventListener('blur', () => {
        busy.delete(name);
        show(name, params[name]); // an unusable or unsent edit goes back
      });
    }
    input.addEventListener('change', () => {
      const v = read();
      throttled.cancel();
      if (v === undefined) return; // still being edited (emptied): blur puts it back
      busy.delete(name);
      sendParam(name, v);
    });

    if (box) {
      box.addEventListener('input', () => busy.add(name));
      box.addEventListener('blur', () => {
        busy.delete(name);
        show(name, params[name]);
      });
      box.addEventListener('change', () => {
        const v = parseValue(spec, box.value);
        if (v === undefined) return; // still being edited (emptied): blur puts it back
        busy.delete(name);
        input.value = String(v);
        box.value = formatParam(name, v);
        sendParam(name, v);
      });
    }
  }

  /** (Re)build the parameter controls from the server's specs. */
  function build(specs) {
    for (const c of controls.values()) c.throttled.cancel();
    controls = new Map();
    busy.clear();
    lastSent.clear();
    if (!form) return;
    const model = controlModel(specs);
    const rows = [];
    const checks = element('div', { class: 'checks' });
    for (const c of model) {
      const built = buildControl(c, checks);
      if (built.row) rows.push(built.row);
      const entry = { spec: c.spec, input: built.input, box: built.box, el: built.row ?? built.label,
        throttled: throttle((v) => sendParam(c.name, v), SEND_INTERVAL_MS) };
      controls.set(c.name, entry);
      wire(c.name, entry);
    }
    if (checks.childElementCount > 0) rows.push(checks);
    form.replaceChildren(...rows);
    form.hidden = rows.length === 0;
    for (const [name, value] of Object.entries(params)) show(name, value);
    showPhysics();
    setEnabled();
  }

  // A parameter of the other physics than the one moving the cells (stiffness under the
  // graph model, edge length under the cells model) is dimmed, and its tooltip says why; it
  // still takes a value, which applies once that physics moves the cells.
  function showPhysics() {
    for (const c of controls.values()) {
      if (!c.el || !c.spec.physics) continue;
      const idle = state.physics !== null && c.spec.physics !== state.physics;
      c.el.classList.toggle('inactive', idle);
      c.el.title = idle ? `${c.spec.description} (Only in the ${c.spec.physics} model; the ${state.physics} model moves the cells now.)`
        : c.spec.description;
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
        if (state.ids.length > 0 && !confirmClear(state.ids.length)) break;
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
  /**
   * Enable the controls only while connected, never for a viewer (who may only watch), and not
   * while the page shows the past: what they would change is the live room, not the one shown
   * (going live, one click or End, brings them back).
   */
  function setEnabled() {
    const connected = state.connection === 'connected';
    const viewer = state.role === 'viewer';
    const past = state.moment !== null;
    root.toggleAttribute('data-offline', !connected);
    root.toggleAttribute('data-view-only', viewer);
    root.toggleAttribute('data-past', past);
    for (const b of root.querySelectorAll('button[data-action]')) b.disabled = !connected || viewer || past;
    for (const input of form?.querySelectorAll('input, select') ?? []) input.disabled = viewer || past;
    if (countInput) countInput.disabled = viewer || past;
  }

  state.on('specs', () => build(state.paramSpecs));
  state.on('params', () => setParams(state.params));
  state.on('limits', () => setLimits(state.limits));
  state.on('physics', showPhysics);
  state.on('connection', setEnabled);
  state.on('access', setEnabled);
  state.on('moment', setEnabled);
  // forget what was sent: the server does not hold it; a toggle or menu shows what it holds
  state.on('rejected', () => {
    lastSent.clear();
    for (const [name, c] of controls) {
      if (c.input.type === 'checkbox' || c.input.tagName === 'SELECT') show(name, params[name]);
    }
  });
  build(state.paramSpecs ?? []);
}
