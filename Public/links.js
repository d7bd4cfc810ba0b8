// A room's links (issue 25): a room belongs to whoever made it, and its links decide who may
// look and who may change it. A link is the room's address with a secret in its fragment,
// `/r/NAME#edit=SECRET` (or `#view=`, `#owner=`): a fragment never reaches a server's log or
// a Referer. The page hands the secret to the server inside the WebSocket handshake's
// subprotocol offer (`forcelayout.key.SECRET`), never in a URL; the server answers with this
// page's role. The owner's secret is kept in this browser (localStorage, per room), so the
// room's maker stays its owner across reloads; it is never put in the address bar. Pure, but
// for the storage handed in.
import { roomUrl } from './room.js';

export const LINK_KINDS = ['owner', 'edit', 'view'];
/** 128 bits in base64url: what the server makes (Sources/LayoutCore/Access/LinkSecret.swift). */
export const SECRET = /^[A-Za-z0-9_-]{22}$/;
export const KEY_PREFIX = 'forcelayout.key.';

/** The link an address's fragment carries (`#edit=SECRET`): {kind, secret}, else null. */
export function linkFromHash(hash) {
  // The fragment may carry a view too (`#view=SECRET&at=…&select=…`: viewlink.js).
  if (typeof hash !== 'string' || !hash.startsWith('#')) return null;
  const params = new URLSearchParams(hash.slice(1));
  const kind = LINK_KINDS.find((k) => params.has(k));
  // A secret cut short or mistyped is still offered: the server says it opens nothing.
  return kind ? { kind, secret: params.get(kind) } : null;
}

/** A room's address with one of its links: `http://host/r/NAME#view=SECRET`. */
export function linkUrl(loc, room, kind, secret) {
  return `${roomUrl(loc, room)}#${kind}=${secret}`;
}

/**
 * The subprotocols a page offers: `subprotocols`, then its key as one more name, when it has
 * one whose characters fit a subprotocol name (anything else would make the browser refuse
 * to open the socket at all).
 */
export function offer(subprotocols, secret) {
  if (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(secret)) return [...subprotocols];
  return [...subprotocols, KEY_PREFIX + secret];
}

const storeKey = (room) => `forcelayout.owner.${room}`;

/** The owner's secret this browser keeps for `room`, or null. */
export function storedOwner(storage, room) {
  try {
    const secret = storage?.getItem(storeKey(room));
    return typeof secret === 'string' && SECRET.test(secret) ? secret : null;
  } catch {
    return null; // storage refused (private mode, a sandbox)
  }
}

/** Keeps (or, with null, forgets) the owner's secret of `room` in this browser. */
export function storeOwner(storage, room, secret) {
  try {
    if (secret) storage?.setItem(storeKey(room), secret);
    else storage?.removeItem(storeKey(room));
  } catch {
    // storage refused: the owner's link still works, it just is not remembered
  }
}

/**
 * The key this page brings to `room`: the link its address names (what the user opened), else
 * the owner's secret this browser keeps. {secret, from: 'address' | 'stored'} or null.
 */
export function chooseKey(hash, storage, room) {
  const link = linkFromHash(hash);
  if (link) return { secret: link.secret, from: 'address' };
  const owned = storedOwner(storage, room);
  return owned ? { secret: owned, from: 'stored' } : null;
}

/** The close statuses of the room's access (docs/protocol.md, Closing). */
export const ACCESS_CLOSES = { 4401: 'rotated', 4403: 'forbidden', 4404: 'private', 4410: 'deleted' };

/**
 * What a close of the room's access means for the page (`hadKey`: it came with a link): null
 * for any other close (reconnect as always). `retry`: reconnect without the key (the room may
 * still let this page watch); `message`: what to tell the user.
 */
export function accessClose(code, room, { hadKey = true } = {}) {
  const kind = ACCESS_CLOSES[code];
  if (kind === 'forbidden' && !hadKey) {
    return { retry: false, message: `Room \u201c${room}\u201d was made private by its owner: only people with a link from its owner can open it now.` };
  }
  switch (kind) {
    case 'rotated':
      return { retry: true, message: `The link you opened room \u201c${room}\u201d with was changed by its owner: it no longer works. Ask for the new link.` };
    case 'forbidden':
      return { retry: true, message: `This link does not open room \u201c${room}\u201d (it may have been changed by its owner, or cut short when copied).` };
    case 'private':
      return { retry: false, message: `Room \u201c${room}\u201d is private: only people with a link from its owner can open it.` };
    case 'deleted':
      return { retry: false, message: `Room \u201c${room}\u201d was deleted by its owner. Reload the page to start a new room of that name.` };
    default:
      return null;
  }
}

/** What a role means, in a sentence for the panel. */
export function describeRole(role, access) {
  if (role === 'owner') return `You own this room (${ACCESS_WORDS[access] ?? access}).`;
  if (role === 'viewer') return 'View only: you can watch, select, zoom and pan; changing the layout needs the edit link.';
  return access === 'open' ? '' : 'You can edit this room.';
}

export const ACCESS_WORDS = {
  open: 'open: anyone with the address can edit',
  view: 'view: anyone can watch, the edit link edits',
  private: 'private: only people with a link get in',
};
