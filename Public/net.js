// The WebSocket connection to the server: connects offering protocol v2 and then v1 (a v2
// server picks v2; an older one answers v1), parses each text message (JSON) and hands it to
// onMessage, hands each binary message (v2's frames, an ArrayBuffer) to onBinary unparsed, reconnects by itself with exponential backoff (0.25 s doubling up to 5 s)
// whenever the connection closes, and reports its state changes: 'open' (socket open,
// waiting for hello) and 'reconnecting' (the first attempt is 'connecting' by definition).
// No callback ever runs inside connect(): a socket that cannot even be created is retried
// from a timer, so the page's wiring is complete before it hears anything. Every message's
// raw size goes to onBytes (for KB/s): a binary message's byteLength, or the length of the
// text, which is its UTF-8 size for the ASCII JSON the server sends (measuring non-ASCII
// exactly would cost an encode per message). `protocols` (an array, or a function asked at each
// attempt) is the offer: links.js adds the room's key to it. A close goes to onClose first,
// which may say 'stop' (the room's access turned this page away: no more attempts, state
// 'refused'). A close with 1012 (service restart: the server is draining, or lost the room's
// stream in a cluster) is retried at once, within RESTART_JITTER_MS, not after the backoff:
// the same address leads to a server that is ready. Better still, a server of a cluster that
// drains first says `reconnect`: the page opens its next socket (within the jitter) while the
// old one goes on streaming, and moves to it at its hello, so a restart costs no pause. Every
// offer asks for batches too (BATCH_OFFER): messages that wait for the page together (a burst
// of joined/left as a server of a cluster drains) come as one `batch`, whose messages go to
// onMessage one by one, in order.
import { roomFromPath, socketPath } from './room.js';

/** What the page offers, the one it prefers first: v2 sends frames as binary messages. */
export const SUBPROTOCOLS = ['forcelayout.v2', 'forcelayout.v1'];

/**
 * The WebSocket of `room` (by default the room of the page's own address, room.js) on the
 * page's own host: ws://host/ws for main, ws://host/ws/NAME for room NAME (wss: under https).
 */
export function socketUrl(loc, room = roomFromPath(loc.pathname)) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${socketPath(room)}`;
}

/** The delay before reconnect attempt n (0-based). */
export function backoffDelay(attempt, { first = 250, max = 5000 } = {}) {
  return Math.min(max, first * 2 ** Math.min(attempt, 20));
}

/** The close status that means "the service restarts: come back now" (RFC 6455, 1012). */
export const SERVICE_RESTART = 1012;
/** A restart's clients come back spread over this many ms, not all in the same one. */
export const RESTART_JITTER_MS = 100;

/**
 * The delay before reconnecting after a close with `code`, the `attempt`-th in a row (0-based):
 * a restart's at once (within the jitter, `random` in [0, 1)), else the backoff.
 */
export function reconnectDelay(code, attempt, random = Math.random()) {
  return code === SERVICE_RESTART && attempt === 0 ? random * RESTART_JITTER_MS : backoffDelay(attempt);
}

/**
 * One more name in every offer: what waits for this page comes batched (docs/protocol.md,
 * `batch`). A server never binds it; one that predates batches ignores it.
 */
export const BATCH_OFFER = 'forcelayout.batch';

const isMessage = (msg) => msg !== null && typeof msg === 'object' && !Array.isArray(msg);

// One message, an object, handed to onMessage (which must never break the page); the
// transport's own (`reconnect`) stays here.
function deliver(msg, onMessage, onReconnect) {
  if (!isMessage(msg)) return;
  if (msg.type === 'reconnect') {
    onReconnect();
    return;
  }
  try {
    onMessage(msg);
  } catch (err) {
    // a message shape this page did not expect must never break the page
    console.debug('forcelayout: message not handled', msg.type, err);
  }
}

// One text message: JSON, an object, or a batch of them (each delivered as if alone).
function handleText(text, onMessage, onReconnect) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    console.debug('forcelayout: not JSON', text.slice(0, 200));
    return;
  }
  if (isMessage(msg) && msg.type === 'batch' && Array.isArray(msg.messages)) {
    for (const each of msg.messages) deliver(each, onMessage, onReconnect);
  } else {
    deliver(msg, onMessage, onReconnect);
  }
}

function handleBinary(buffer, onBinary) {
  try {
    onBinary(buffer);
  } catch (err) {
    console.debug('forcelayout: binary message not handled', err);
  }
}

export function connect({
  url, protocols = SUBPROTOCOLS, onMessage, onBinary = () => {}, onState = () => {}, onBytes = () => {}, onClose = () => undefined,
}) {
  let ws = null; // the socket the page hears
  let successor = null; // one opened on `reconnect`, until its hello makes it the page's
  let attempt = 0;
  let timer = null;
  let moving = null; // the timer that opens the successor

  // A socket, listened to; null if the browser refused to make one.
  function socket() {
    let made;
    try {
      made = new WebSocket(url, [...(typeof protocols === 'function' ? protocols() : protocols), BATCH_OFFER]);
      made.binaryType = 'arraybuffer';
    } catch (err) {
      console.debug('forcelayout: cannot open websocket', err);
      return null;
    }
    made.addEventListener('open', () => {
      if (made === ws) onState('open');
    });
    made.addEventListener('message', (e) => receive(made, e.data));
    made.addEventListener('close', (e) => closed(made, e));
    // 'error' is always followed by 'close'; the browser already reports the failure
    made.addEventListener('error', () => {});
    return made;
  }

  function open() {
    timer = null;
    ws = socket();
    if (ws === null) {
      // not retry() here: this may run inside connect(), before its caller has the result
      timer = setTimeout(() => {
        timer = null;
        retry();
      }, 0);
    }
  }

  // The server drains (`reconnect`): a successor is opened within the jitter, to the same
  // address (a load balancer finds a ready server); the old socket goes on serving meanwhile.
  function move() {
    if (successor !== null || moving !== null) return;
    moving = setTimeout(() => {
      moving = null;
      if (ws !== null && successor === null) successor = socket();
    }, Math.random() * RESTART_JITTER_MS);
  }

  function receive(from, data) {
    if (from === successor) {
      // its hello (the first message a server sends): from now on the page hears this one
      const old = ws;
      ws = successor;
      successor = null;
      old?.close(1000, 'moved to another server');
      onState('open');
    } else if (from !== ws) {
      return; // the old socket after a move
    }
    attempt = 0; // the server talks: the next drop starts the backoff over
    if (typeof data === 'string') {
      onBytes(data.length);
      handleText(data, onMessage, move);
    } else if (data instanceof ArrayBuffer) {
      onBytes(data.byteLength);
      handleBinary(data, onBinary);
    } else {
      onBytes(data?.size ?? 0); // a Blob: binaryType was not honoured; nothing to read
    }
  }

  function closed(from, e) {
    if (from === successor) {
      successor = null; // it found no server: the old socket stays until its server closes it
      return;
    }
    if (from !== ws) return; // the old socket, closed by the move
    ws = null;
    if (moving !== null) {
      clearTimeout(moving); // the successor was not opened yet: the reconnect below replaces it
      moving = null;
    }
    if (successor !== null) {
      // closed (1012) before the successor's hello: the successor is the page's from now on
      ws = successor;
      successor = null;
      return;
    }
    if (onClose({ code: e.code, reason: e.reason }) === 'stop') {
      onState('refused');
      return;
    }
    retry(e.code);
  }

  function retry(code) {
    if (timer !== null) return;
    onState('reconnecting');
    timer = setTimeout(open, reconnectDelay(code, attempt++));
  }

  open();

  return {
    /** The subprotocol the server chose ('forcelayout.v2' or 'forcelayout.v1'), '' when not open. */
    get protocol() {
      return ws && ws.readyState === WebSocket.OPEN ? ws.protocol : '';
    },
    /** Send one message object; false when not connected (it is dropped). */
    send(obj) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(obj));
      return true;
    },
  };
}
