// The side panel: open or collapsed (its toggle button; a phone starts with it collapsed,
// the layout first), and the part of the canvas it leaves free: beside it in wide windows,
// below its header in narrow ones (opened there, it overlays). That part is measured when
// sizes change, never per draw, and handed to onInsets ({top, right, bottom, left}, CSS px)
// when it changed. open() opens it (the room switcher in its header does); reveal() closes it
// where it overlays the layout (a phone), so a cell the search went to is seen.
const NARROW = 640; // px: a phone

export function createPanel(panel, toggle, { onInsets }) {
  let inset = { top: 0, right: 0, bottom: 0, left: 0 };

  /** Measure the free part again (after a resize); onInsets hears if it changed. */
  function measure() {
    const collapsed = panel.classList.contains('collapsed');
    const narrow = window.innerWidth <= NARROW;
    const next = {
      top: narrow && collapsed ? panel.offsetTop + panel.offsetHeight : 0,
      right: narrow || collapsed ? 0 : panel.offsetWidth + 24,
      bottom: 0,
      left: 0,
    };
    if (next.top === inset.top && next.right === inset.right) return;
    inset = next;
    onInsets(inset);
  }

  function setOpen(open) {
    panel.classList.toggle('collapsed', !open);
    toggle.setAttribute('aria-expanded', String(open));
    toggle.title = open ? 'Hide the panel' : 'Show the panel';
    toggle.textContent = open ? '\u2715' : '\u2630';
    measure();
  }

  toggle.addEventListener('click', () => setOpen(panel.classList.contains('collapsed')));
  if (window.innerWidth <= NARROW) setOpen(false);
  new ResizeObserver(measure).observe(panel);
  return {
    measure,
    open: () => setOpen(true),
    reveal() {
      if (window.innerWidth <= NARROW) setOpen(false);
    },
  };
}
