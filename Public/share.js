// This room's address, to share: a link to the room's page (absolute: /r/NAME, or / for
// main, room.js), which opens it in another window, and a Copy button that puts it on the
// clipboard (clipboard.js). Where the page has no Clipboard API (plain http on a network
// address) it is copied the old way, and when even that fails the link's text, the whole
// address, is left selected and the note says to press Ctrl+C. It follows the state's room.
import { copyText } from './clipboard.js';
import { roomPath, roomUrl } from './room.js';

const NOTE_MS = 4000;

export function createShare({ link, button, note }, state) {
  const host = link.querySelector('.share-host');
  const path = link.querySelector('.share-path');
  let timer = null;

  function render() {
    const url = roomUrl(location, state.room);
    link.href = url;
    host.textContent = `${location.protocol}//${location.host}`;
    path.textContent = roomPath(state.room);
    link.title = `${url}\nThis room's address: open it in another window, or send it to invite others`;
  }

  function say(text) {
    note.textContent = text;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      note.textContent = '';
      timer = null;
    }, NOTE_MS);
  }

  // document.execCommand('copy') copies the selection: a text area's, off the screen
  function copyOldWay(text) {
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
      button.focus();
    }
  }

  button.addEventListener('click', async () => {
    const url = link.href;
    const result = await copyText(url, { clipboard: navigator.clipboard, copyOldWay });
    note.dataset.result = result;
    if (result === 'copied') {
      say('Link copied');
      return;
    }
    window.getSelection()?.selectAllChildren(link);
    say(`Press ${/Mac|iPhone|iPad/.test(navigator.platform) ? '\u2318C' : 'Ctrl+C'} to copy the selected link`);
  });

  state.on('room', render);
  render();
}
