// A view in the page's address, so a colleague opens exactly what you see:
// `/r/NAME#at=X,Y,ZOOM&select=ID` (X, Y: the world point at the centre of the view; ZOOM:
// screen pixels per world unit, as the camera's scale, so a larger window shows more around
// the same point, as map addresses do). It shares the fragment with a room's link
// (`#view=SECRET&at=…`, links.js): a fragment never reaches a server. Pure, no DOM.
import { linkFromHash } from './links.js';

const MAX_SCALE = 1e4;
const MIN_SCALE = 1e-4;

const finite = (v) => (v.trim() === '' ? NaN : Number(v));

/** The view an address's fragment names: {at: {cx, cy, scale} | null, select: id | null}. */
export function viewFromHash(hash) {
  const params = new URLSearchParams(typeof hash === 'string' ? hash.replace(/^#/, '') : '');
  let at = null;
  const parts = (params.get('at') ?? '').split(',');
  if (parts.length === 3) {
    const [cx, cy, scale] = parts.map(finite);
    if (Number.isFinite(cx) && Number.isFinite(cy) && scale >= MIN_SCALE && scale <= MAX_SCALE) at = { cx, cy, scale };
  }
  const s = params.get('select');
  const select = s !== null && /^\d{1,15}$/.test(s) && Number(s) > 0 ? Number(s) : null;
  return { at, select };
}

// a camera's numbers, short but exact to well under a pixel
const coordinate = (v, scale) => {
  const digits = Math.max(0, Math.min(6, Math.ceil(Math.log10(Math.max(scale, 1e-9)) + 1)));
  return String(Number(v.toFixed(digits)));
};
const zoom = (scale) => String(Number(scale.toPrecision(4)));

/**
 * The fragment of a view: the camera {cx, cy, scale}, the selected cell (or null), and the
 * room link to carry ({kind, secret} or null). '#view=SECRET&at=1.5,-3,0.8&select=12'.
 */
export function viewHash(camera, selectedId = null, link = null) {
  const parts = [];
  if (link) parts.push(`${link.kind}=${link.secret}`);
  parts.push(`at=${coordinate(camera.cx, camera.scale)},${coordinate(camera.cy, camera.scale)},${zoom(camera.scale)}`);
  if (selectedId !== null && selectedId !== undefined) parts.push(`select=${selectedId}`);
  return `#${parts.join('&')}`;
}

/**
 * Which room link a view's address should carry so its reader gets in: none for a room anyone
 * may watch; else the view link when this page knows it (an owner, an editor, a viewer who
 * came by one), else null (`needsLink`: the reader will need their own link).
 */
export function viewLinkKey(access, links, hash) {
  if (access === 'open' || access === 'view') return { link: null, needsLink: false };
  if (links?.view) return { link: { kind: 'view', secret: links.view }, needsLink: false };
  const own = linkFromHash(hash);
  if (own?.kind === 'view') return { link: own, needsLink: false };
  return { link: null, needsLink: true };
}
