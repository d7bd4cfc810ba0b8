// A transient notice (server errors, dropped messages): shown for a few seconds.
export function createNotice(el, { ms = 4000 } = {}) {
  let timer = null;
  return {
    show(text) {
      el.textContent = text;
      el.hidden = false;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        el.hidden = true;
        timer = null;
      }, ms);
    },
  };
}
