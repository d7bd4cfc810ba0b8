// Playing a recording into this page's room, as the CLI's PlaybackSession.swift does: the plan
// (playbackplan.js) sent message by message at the recording's pace (`speed` times it; 0: as
// fast as the server's rate allows, which the panel paces), up to WINDOW messages in flight.
// Each is answered by its event (by this page's client, of the kind it waits for, in the order
// sent) or refused by an error naming its ref (`play-N`): an error stops the playback with the
// server's words. An `added` gives the room's ids of the cells it added, and a message naming
// cells goes only once every one of them has the room's id. Stopping (or an error, a lost
// connection, the room moving) leaves the room as far as played, and unpaused when the plan
// paused it (`stop`'s message). Pure, no DOM: the panel (playpanel.js) sends what `next`
// returns and hands back the answers.
import { WINDOW } from './importer.js';
import { makePlaybackPlan } from './playbackplan.js';

/** Messages in flight at most: the importer's (ImportSession.defaultWindow). */
export { WINDOW };
/** Seconds the oldest message in flight may go unanswered before the playback gives up. */
export const ANSWER_TIMEOUT = 20;
export const REF = 'play';

/** `ms` as minutes and seconds: 83000 → "1:23". */
export function minutes(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A playback of `recording` (recording.js) into a room of `roomParameters` (state.params),
 * `limits` (state.limits) and parameter `defaults` (from state.paramSpecs).
 */
export function createPlayback(recording, { roomParameters, limits = {}, defaults = {}, speed = 1, window = WINDOW }) {
  const plan = makePlaybackPlan(recording, { roomParameters, limits, defaults });
  const { messages } = plan;
  const windowSize = Math.max(1, window);
  let pace = Math.max(0, Number(speed) || 0);
  let next = 0; // the next message of the plan to send
  let inFlight = []; // {index, ref}, oldest first
  const ids = new Map(); // the room's id of each of the recording's cells in the room
  let clock = null; // ms of the recording played, and when it was last moved on
  let lastNow = 0;
  let waitingSince = null;
  let failed = null;
  let stopped = false;

  // `command` with the room's ids for the recording's; null while a cell it names has none
  // yet (its `added` has not come).
  function mapped(command) {
    const id = (recorded) => ids.get(recorded) ?? null;
    switch (command.type) {
      case 'update': {
        const cells = command.cells.map((c) => ({ ...c, id: id(c.id) }));
        return cells.some((c) => c.id === null) ? null : { ...command, cells };
      }
      case 'link': case 'unlink': {
        const links = command.links.map((l) => ({ ...l, source: id(l.source), target: id(l.target) }));
        return links.some((l) => l.source === null || l.target === null) ? null : { ...command, links };
      }
      case 'remove': {
        const out = command.ids.map(id);
        return out.includes(null) ? null : { ...command, ids: out };
      }
      case 'pin': case 'unpin': {
        const room = id(command.id);
        return room === null ? null : { ...command, id: room };
      }
      default:
        return command;
    }
  }

  // Cells a message takes out of the room lose their room ids as it goes: a later add of the
  // same recorded id (a restore brings cells back) waits for its own answer.
  function forget(command) {
    if (command.type === 'remove') for (const cell of command.ids) ids.delete(cell);
    else if (command.type === 'clear') ids.clear();
  }

  // The recording's clock moves on with the page's, `pace` times as fast.
  function move(now) {
    if (clock === null) clock = 0;
    else clock += (now - lastNow) * pace;
    lastNow = now;
  }

  return {
    plan,
    get total() { return messages.length; },
    get done() { return failed !== null || stopped || (next === messages.length && inFlight.length === 0); },
    get finished() { return failed === null && !stopped && next === messages.length && inFlight.length === 0; },
    get failed() { return failed; },
    get speed() { return pace; },
    /** {done, total, at, duration}: messages answered, and how far into the recording (ms). */
    get progress() {
      const answered = next - inFlight.length;
      const sent = next > 0 ? messages[next - 1].offset : 0;
      const at = pace === 0 || clock === null ? sent : Math.max(sent, Math.min(clock, next < messages.length ? messages[next].offset : plan.duration));
      return { done: answered, total: messages.length, at: Math.min(at, plan.duration), duration: plan.duration };
    },

    /** The recording's pace from now on (0: as fast as allowed). */
    setSpeed(value, now) {
      if (clock !== null) move(now);
      pace = Math.max(0, Number(value) || 0);
    },

    /**
     * The next message to send at `now` (ms), with its ref, or null: none due yet (`wake` says
     * in how many ms one is), the window full, its cells' ids not in yet, or the end.
     */
    next(now) {
      if (this.done || inFlight.length >= windowSize || next >= messages.length) return null;
      move(now);
      const message = messages[next];
      if (pace > 0 && message.offset > clock) return null;
      const command = mapped(message.command);
      if (command === null) return null;
      const ref = `${REF}-${next + 1}`;
      if (inFlight.length === 0) waitingSince = now;
      inFlight.push({ index: next, ref });
      forget(message.command);
      next += 1;
      return { ...command, ref };
    },

    /** ms until the next message is due at the recording's pace (0: due, or waiting for an answer). */
    wake() {
      if (pace === 0 || next >= messages.length || clock === null) return 0;
      return Math.max(0, (messages[next].offset - clock) / pace);
    },

    /** An event; true when it answered the oldest message in flight. */
    event(ev, me) {
      if (this.done) return false;
      if (ev.kind === 'failover') {
        // as the CLI: the playback does not follow the room to its new server
        failed = 'the room moved to another server: the playback stopped where it was';
        return true;
      }
      const oldest = inFlight[0];
      if (!oldest || ev.by !== me) return false;
      const sent = messages[oldest.index];
      if (ev.kind !== sent.answer) return false;
      if (sent.answer === 'added') {
        if (!Array.isArray(ev.ids) || ev.ids.length !== sent.adds.length) {
          failed = `the room's added names ${Array.isArray(ev.ids) ? ev.ids.length : 0} cells for the ${sent.adds.length} sent`;
          return true;
        }
        sent.adds.forEach((recorded, k) => ids.set(recorded, ev.ids[k]));
      }
      inFlight.shift();
      waitingSince = inFlight.length === 0 ? null : lastNow;
      return true;
    },

    /** An error whose ref names a message in flight stops the playback with the server's words. */
    refused(err) {
      const at = inFlight.findIndex((m) => m.ref === err?.ref);
      if (at < 0) return false;
      const [{ index }] = inFlight.splice(at, 1);
      const why = typeof err.message === 'string' ? err.message : 'refused';
      failed = `the server refused its ${messages[index].command.type}: ${why}`;
      return true;
    },

    /** The connection ended: the playback does not outlive it. */
    lost() {
      if (!this.done) failed = `the connection ended during the playback, at message ${next - inFlight.length} of ${messages.length}`;
    },

    /** Time goes on: true when the playback just gave up (no answer for ANSWER_TIMEOUT s). */
    tick(now) {
      if (this.done || waitingSince === null || now - waitingSince < ANSWER_TIMEOUT * 1000) return false;
      failed = `no answer from the server for ${ANSWER_TIMEOUT} s: the playback stopped at message ${next - inFlight.length} of ${messages.length}`;
      return true;
    },

    /**
     * Stops it (Stop, or after it failed): the message that unpauses the room when the plan
     * paused it and has not unpaused it yet, or null.
     */
    stop() {
      // all sent: the plan's own end left the room as the recording did
      const owed = plan.pauses && next > 0 && next < messages.length;
      if (failed === null) stopped = true;
      return owed ? { type: 'params', paused: false } : null;
    },
  };
}
