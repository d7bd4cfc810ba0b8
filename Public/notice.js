// A transient notice (server errors, dropped messages): shown for a few seconds; a `sticky`
// one (a room the page may not open) stays until another replaces it.
export function createNotice(el, { ms = 4000 } = {}) {
  let timer = null;
  return {
    show(text, { sticky = false, seconds = ms / 1000 } = {}) {
      el.textContent = text;
      el.hidden = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (sticky) return;
      timer = setTimeout(() => {
        el.hidden = true;
        timer = null;
      }, seconds * 1000);
    },
  };
}
