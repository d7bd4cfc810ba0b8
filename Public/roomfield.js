// The field of the room switcher that opens a room by name: the name is checked as the
// server checks it (room.js) as it is typed, and what is wrong with it said under the field
// (with the valid name probably meant); sent (Enter or Open), a valid name goes to its
// room's page, the page's own room says so instead, and an empty field asks for a name.
import { checkRoomName, roomPath } from './room.js';

/** form: with input[name=room]; note: where it speaks; navigate(path): goes to a page. */
export function createRoomField(form, note, state, { navigate }) {
  const input = form.querySelector('input[name="room"]');

  function say(text, { invalid = false } = {}) {
    note.textContent = text;
    note.classList.toggle('invalid', invalid);
    if (invalid) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  // what is wrong is said as soon as it is typed; an empty field says nothing until sent
  input.addEventListener('input', () => {
    const check = checkRoomName(input.value);
    const blank = input.value.trim() === '';
    say(check.ok || blank ? '' : check.message, { invalid: !check.ok && !blank });
  });

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const check = checkRoomName(input.value);
    if (!check.ok) {
      say(check.message, { invalid: true });
      input.focus();
    } else if (check.name === state.room) {
      say(`You are in \u201c${check.name}\u201d.`);
    } else {
      say('');
      navigate(roomPath(check.name));
    }
  });
}
