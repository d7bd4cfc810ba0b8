// Hands on the canvas: what the pointer gestures of pointers.js do to the layout. Pressing
// a cell selects it; dragging it holds it at the pointer for everyone (`pin`, at most 30
// a second, held by this connection: see dragpins.js) and the drop lets it go, or leaves it
// pinned where it is dropped if it was pinned before; a double-click (double tap) pins or unpins a cell where it is; hovering
// shows its label, group, degree and owner in the tooltip; a touch held on a cell points at
// it (pointing.js); a tap on the empty canvas clears the highlight. The canvas's cursor classes follow the hovered
// and the dragged cell, and a lost connection lets go of everything.
import { createPointers } from './pointers.js';
import { clearFocus, mayChange, ownerLookup, selectId, setDrag, setHover } from './state.js';
import { describeOwner, ownerOf } from './owners.js';
import { cellName } from './celldata.js';
import { throttle } from './throttle.js';
import { dragPin, dropMessage } from './dragpins.js';

const round1 = (v) => Math.round(v * 10) / 10;

// send: quiet (false when not connected); ask: the same, telling the user when it cannot go
export function createHands({ canvas, renderer, scene, state, tooltip, send, ask, onCamera, neighbours, point }) {
  const sendPin = throttle((message) => send(message), 33);
  const drawn = scene.scene;

  function cellAt(clientX, clientY) {
    const i = renderer.hit(clientX, clientY, drawn);
    return i < 0 ? null : drawn.ids[i];
  }

  function hover(id, clientX, clientY) {
    setHover(state, id);
    if (id === null) return;
    const owner = state.moment?.owners ? ownerOf(state.moment.owners, id) : ownerLookup(state)(id);
    // what is drawn: the live layout's data and pins, or a moment's of the past
    const pinned = drawn.pinned.has(id) ? ' · pinned' : '';
    const group = drawn.data.cells.get(id)?.group;
    const degree = state.moment === null ? neighbours.degree(id) : 0;
    const parts = [cellName(drawn.data, id)];
    if (group !== undefined) parts.push(`group ${group}`);
    if (degree > 0) parts.push(degree === 1 ? '1 link' : `${degree.toLocaleString('en-US')} links`);
    parts.push(describeOwner(owner, state.client));
    tooltip.show(`${parts.join(' · ')}${pinned}`, clientX, clientY);
  }

  state.on('hover', () => {
    canvas.classList.toggle('over-cell', state.hoveredId !== null);
    if (state.hoveredId === null) tooltip.hide();
  });
  state.on('drag', () => {
    canvas.classList.toggle('dragging', state.dragging !== null);
    if (state.dragging !== null) tooltip.hide();
  });

  // A viewer selects, hovers, zooms and pans; it moves and pins nothing (the server would
  // refuse); nor does anyone while the page shows the past (the cell is not where it is now).
  const pointers = createPointers(canvas, renderer, {
    cellAt,
    select: (id) => selectId(state, id),
    dragStart(id) {
      if (!mayChange(state)) return;
      setDrag(state, { id, wx: 0, wy: 0, wasPinned: state.pinned.has(id) });
    },
    dragMove(id, clientX, clientY) {
      if (!state.dragging) return;
      const [wx, wy] = renderer.toWorld(clientX, clientY);
      const d = { ...state.dragging, id, wx: round1(wx), wy: round1(wy) };
      setDrag(state, d);
      sendPin.call(dragPin(id, d.wx, d.wy, d.wasPinned));
    },
    dragEnd(id, { cancelled }) {
      const d = state.dragging;
      setDrag(state, null);
      if (!d) return;
      const message = dropMessage(id, d.wx, d.wy, { wasPinned: d.wasPinned, cancelled });
      if (message.type === 'pin') sendPin.flush(message);
      else {
        sendPin.cancel();
        send(message);
      }
    },
    doubleTap(id) {
      if (!mayChange(state)) return;
      if (state.pinned.has(id)) {
        ask({ type: 'unpin', id });
        return;
      }
      const i = drawn.index.get(id);
      if (i === undefined) return;
      ask({ type: 'pin', id, x: round1(drawn.xy[2 * i]), y: round1(drawn.xy[2 * i + 1]) });
    },
    hover,
    longPress: point,
    tapEmpty: () => clearFocus(state),
    cameraMoved: onCamera,
  });

  state.on('connection', () => {
    if (state.connection === 'reconnecting') pointers.cancel();
  });
}
