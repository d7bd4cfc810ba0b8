// This room's address, to share: a link to the room's page (absolute: /r/NAME, or / for
// main, room.js), which opens it in another window, and a Copy button that puts it on the
// clipboard (clipboard.js). Where the page has no Clipboard API (plain http on a network
// address) it is copied the old way, and when even that fails the link's text, the whole
// address, is left selected and the note says to press Ctrl+C. It follows the state's room.
// `createCopier` is that copying, for every Copy button of the panel (sharelinks.js too).
import { copyText } from './clipboard.js';
import { roomPath, roomUrl } from './room.js';

const NOTE_MS = 4000;

/**
 * Copies a text and says so in `note`: copy(text, {button, selectable}) puts `text` on the
 * clipboard; when it cannot, `selectable` (an element showing the text) is left selected and
 * the note says to press Ctrl+C.
 */
export function createCopier(note) {
  let timer = null;

  function say(text) {
    note.textContent = text;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      note.textContent = '';
      timer = null;
    }, NOTE_MS);
  }

  // document.execCommand('copy') copies the selection: a text area's, off the screen
  function copyOldWay(text, button) {
    const area = document.createElement('textarea');
    area.className = 'offscreen';
    area.value = text;
    area.readOnly = true;
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
      button?.focus();
    }
  }

  return {
    say,
    async copy(text, { button, selectable, what = 'Link' } = {}) {
      const result = await copyText(text, { clipboard: navigator.clipboard, copyOldWay: (t) => copyOldWay(t, button) });
      note.dataset.result = result;
      if (result === 'copied') {
        say(`${what} copied`);
        return result;
      }
      if (selectable) window.getSelection()?.selectAllChildren(selectable);
      say(`Press ${/Mac|iPhone|iPad/.test(navigator.platform) ? '\u2318C' : 'Ctrl+C'} to copy the selected link`);
      return result;
    },
  };
}

export function createShare({ link, button, note }, state, copier = createCopier(note)) {
  const host = link.querySelector('.share-host');
  const path = link.querySelector('.share-path');

  function render() {
    const url = roomUrl(location, state.room);
    link.href = url;
    host.textContent = `${location.protocol}//${location.host}`;
    path.textContent = roomPath(state.room);
    link.title = `${url}\nThis room's address: open it in another window, or send it to invite others`;
  }

  button.addEventListener('click', () => copier.copy(link.href, { button, selectable: link }));

  state.on('room', render);
  render();
  return copier;
}
