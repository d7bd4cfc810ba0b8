// Going back in the room's past (issue 27): the timeline's events (timeline.js, fed by the
// server's `history` answers and the live events the state hears), the moment shown while
// the timeline's handle is away from now (scrub.js asks for it; the state's `moment` holds
// it, and the canvas draws it instead of the live layout), and the way back: live, or
// restore (the room becomes, for everyone, what the moment shows). The live state goes on
// underneath all along, so going live is instant.
//
// It takes the server's `history` and `moment` answers and the errors of its own requests
// (`take`); listeners of `change` hear when the timeline or the time shown changed.
import { setMoment } from './state.js';
import { addEvents, applyHistory, createTimeline, historyRequest, resetTimeline, serverNow, span } from './timeline.js';
import { createScrub } from './scrub.js';
import { createEmitter } from './emitter.js';

const HISTORY_REF = 'history';

export function createRewind({ state, send, now = () => Date.now() }) {
  const emitter = createEmitter(['change']);
  const timeline = createTimeline();
  let opened = false;
  let at = null; // the time shown (server ms), null: live
  let unavailable = null; // the server's refusal of `history` (an older server), or null
  const scrub = createScrub({ send, now: () => performance.now() });
  const changed = () => emitter.emit('change');

  // the next batch of the past while the timeline is open: the newest, then further back
  function loadMore({ fresh = false } = {}) {
    if (!opened || unavailable !== null) return;
    const msg = historyRequest(timeline, { fresh });
    if (msg === null) return;
    if (!send({ ...msg, ref: HISTORY_REF })) timeline.asked = false;
  }

  state.on('history', ({ events, restarted }) => {
    if (restarted) {
      resetTimeline(timeline);
      loadMore({ fresh: true });
    }
    addEvents(timeline, events);
    // my own restore came back: the room is now what this page showed
    if (at !== null && events.some((ev) => ev.kind === 'restored' && ev.by === state.client)) live();
    changed();
  });
  state.on('connection', () => {
    if (state.connection !== 'connected') return;
    timeline.asked = false;
    unavailable = null; // perhaps another server now
    scrub.resume();
    loadMore({ fresh: true });
  });

  function live() {
    scrub.cancel();
    at = null;
    setMoment(state, null);
    changed();
  }

  return {
    on: emitter.on,
    timeline,
    /** The server's time now (ms since 1970). */
    now: () => serverNow(timeline, now()),
    /** What the track covers: {start, end}, server times. */
    range: () => span(timeline, serverNow(timeline, now())),
    /** The time shown (server ms), null while live. */
    get at() {
      return at;
    },
    get opened() {
      return opened;
    },
    /** Why the server gives no history (it refused the request), or null. */
    get unavailable() {
      return unavailable;
    },
    /** Open the timeline (the past is fetched), or close it (and go live). */
    open(on) {
      opened = on;
      if (on) loadMore({ fresh: true });
      else if (at !== null) live();
      changed();
    },
    /** Show the room as it was at `t` (server ms); at or past now (Infinity too): live. */
    goTo(t) {
      if (Number.isNaN(t) || typeof t !== 'number' || unavailable !== null) return;
      if (t >= this.now()) return live();
      // not before the oldest moment the server keeps (when it said; else it clamps)
      at = timeline.from === null ? t : Math.max(timeline.from, t);
      scrub.want(at);
      changed();
    },
    live,
    /** Make the room what the moment shown is, for everyone (an editor's or owner's page). */
    restore() {
      const shown = state.moment;
      if (shown === null) return false;
      return send({ type: 'restore', at: shown.at });
    },
    /**
     * A server message, if it is one of this part's: `history`, `moment`, or an error of its
     * own requests. Returns true when it was taken (a refused `moment` still goes to the state,
     * to be shown as every error is).
     */
    take(msg) {
      if (msg.type === 'history') {
        if (applyHistory(timeline, msg, now())) {
          changed();
          loadMore(); // further back while the server has more
          // the room as it is now, held for a drag back (the server has a past to show)
          if (at === null && timeline.from !== null) scrub.prime(serverNow(timeline, now()));
        }
        return true;
      }
      if (msg.type === 'moment') {
        const moment = scrub.answer(msg);
        // an answer that comes after going live is not shown
        if (moment !== null && at !== null) setMoment(state, moment);
        return true;
      }
      if (msg.type === 'error') {
        if (msg.ref === HISTORY_REF) {
          // said on the timeline itself, not as a notice: an older server knows no history at
          // all, one may keep none (unavailable, its reason): the handle stays live; anything
          // else is shown as every error is, and asked again when the timeline opens
          timeline.asked = false;
          if (msg.code === 'unknown_type') unavailable = 'this server keeps no history (an older version)';
          else if (msg.code === 'unavailable') unavailable = typeof msg.message === 'string' ? msg.message : 'this server keeps no history';
          else unavailable = null;
          changed();
          return unavailable !== null;
        }
        if (scrub.refused(msg) && !scrub.busy && at !== null && state.moment === null) {
          live(); // no moment could be shown: back to what there is
        }
      }
      return false;
    },
    /** How long moments took to come (ms from the request to its answer): {answers, meanMs, maxMs, …} (scrub.js figures). */
    figures: () => scrub.figures,
  };
}
