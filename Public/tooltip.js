// A small tooltip that follows the pointer over the canvas (the hovered cell: its id and who
// added it). Positioned with CSSOM properties, which a strict style CSP allows.
const OFFSET = 14;

export function createTooltip(el) {
  let shown = '';
  return {
    show(text, clientX, clientY) {
      if (shown !== text) {
        el.textContent = text;
        shown = text;
      }
      el.hidden = false;
      const w = el.offsetWidth;
      const h = el.offsetHeight;
      // beside the pointer, flipped to the other side near the window's edges
      const x = clientX + OFFSET + w > window.innerWidth ? clientX - OFFSET - w : clientX + OFFSET;
      const y = clientY + OFFSET + h > window.innerHeight ? clientY - OFFSET - h : clientY + OFFSET;
      el.style.transform = `translate(${Math.max(0, Math.round(x))}px, ${Math.max(0, Math.round(y))}px)`;
    },
    hide() {
      el.hidden = true;
    },
  };
}
