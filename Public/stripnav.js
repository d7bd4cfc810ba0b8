// Where a key moves the strip's selection: arrows by one dot, PageUp/PageDown by the window
// of dots shown (so one press brings the next window into view), Home/End to the ends.
// Pure, no DOM. Returns the new index, or null when the key is not the strip's.

const STEPS = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };

export function keyTarget(key, { selected, count, page }) {
  if (!(count > 0)) return null;
  const at = selected >= 0 ? selected : 0;
  const window = Math.max(1, Math.floor(page) || 1);
  let next;
  if (Object.hasOwn(STEPS, key)) next = at + STEPS[key];
  else if (key === 'PageUp') next = at + window;
  else if (key === 'PageDown') next = at - window;
  else if (key === 'Home') next = 0;
  else if (key === 'End') next = count - 1;
  else return null;
  return Math.min(Math.max(next, 0), count - 1);
}
