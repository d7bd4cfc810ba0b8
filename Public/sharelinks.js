// The room's links and access in the panel (links.js says what they are): what this page may
// do here (its role, in one sentence), a Copy button for each link it may hand on (the view
// link and the edit link for the owner and for editors who came with the edit link; the
// owner's link, which gives the room away, for its owner), and for the owner the room's
// access (open, view, private), Rotate links, which ends the old edit and view links, and
// Delete room.
// Copied links put the secret in the fragment (`/r/NAME#view=SECRET`). It follows the state's
// `access` change (hello, role messages).
import { ACCESS_WORDS, describeRole, linkUrl } from './links.js';

export function createShareLinks({ root, note, copies, accessSelect, rotate, remove }, state,
  { send, copier, confirmRotate = () => true, confirmDelete = () => true }) {
  const ownerControls = root.querySelector('[data-owner-only]');

  function render() {
    const { role, access, links } = state;
    // turned away (the notice says why): no role here any more
    note.textContent = state.connection === 'refused' ? '' : describeRole(role, access);
    root.dataset.role = role;
    document.body.dataset.role = role;
    document.body.dataset.access = access;
    for (const button of copies) {
      const kind = button.dataset.copy;
      button.hidden = !links?.[kind];
    }
    if (ownerControls) ownerControls.hidden = role !== 'owner';
    accessSelect.value = access;
    for (const option of accessSelect.options) option.title = ACCESS_WORDS[option.value] ?? '';
    const shared = copies.some((b) => !b.hidden);
    root.querySelector('.share-links')?.toggleAttribute('hidden', !shared);
  }

  for (const button of copies) {
    button.addEventListener('click', () => {
      const kind = button.dataset.copy;
      const secret = state.links?.[kind];
      if (!secret) return;
      copier.copy(linkUrl(location, state.room, kind, secret), { button, what: `${kind[0].toUpperCase()}${kind.slice(1)} link` });
    });
  }

  accessSelect.addEventListener('change', () => {
    if (!send({ type: 'access', access: accessSelect.value })) accessSelect.value = state.access;
  });

  rotate.addEventListener('click', () => {
    if (!confirmRotate()) return;
    if (send({ type: 'rotate', links: ['edit', 'view'] })) copier.say('New edit and view links made: the old ones no longer work');
  });

  remove?.addEventListener('click', () => {
    if (confirmDelete()) send({ type: 'delete' });
  });

  state.on('access', render);
  state.on('connection', render);
  render();
}
