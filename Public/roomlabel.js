// The room's name where the page shows it: the document's title ("demo · forcelayout"), the
// panel's header, and <body data-room> for tests and tools. It follows the state's room (the
// page's address until hello.room says it).
import { pageTitle } from './room.js';

export function createRoomLabel(el, state) {
  function render() {
    document.title = pageTitle(state.room);
    el.textContent = state.room;
    el.title = `Room \u201c${state.room}\u201d`; // the whole name, however much the header shows
    document.body.dataset.room = state.room;
  }

  state.on('room', render);
  render();
}
