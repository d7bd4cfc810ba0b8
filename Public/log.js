// The activity log: the server's events in words (wording.js), newest line on top, at most
// `max` lines, each with the time it happened. A line whose key matches one of the newest
// few (written in the last seconds, with no keyless line such as "server restarted" between)
// replaces it and counts the repeats ("×12"), so a drag or a slider does not flood the log.
// It follows the state's history: every event is shown once, even across reconnects.
import { clockTime, describeEvent, eventKey } from './wording.js';

const MERGE_LINES = 4; // newest lines looked at for a repeat
const MERGE_MS = 10000; // ... written this recently

export function createLog(list, state, { max = 50 } = {}) {
  function add(text, { seq, time = new Date(), kind, key } = {}) {
    if (!text) return;
    let repeats = 1;
    if (key) {
      let li = list.firstElementChild;
      for (let i = 0; li && i < MERGE_LINES; i++, li = li.nextElementSibling) {
        if (!li.dataset.key || time - Number(li.dataset.at) > MERGE_MS) break;
        if (li.dataset.key === key) {
          repeats = Number(li.dataset.repeats || 1) + 1;
          li.remove();
          break;
        }
      }
    }
    const li = document.createElement('li');
    if (Number.isFinite(seq)) li.dataset.seq = String(seq);
    if (kind) li.dataset.kind = kind;
    if (key) li.dataset.key = key;
    li.dataset.at = String(time.getTime());
    const t = document.createElement('time');
    t.dateTime = time.toISOString();
    t.textContent = clockTime(time);
    const span = document.createElement('span');
    span.textContent = text;
    li.append(t, span);
    if (repeats > 1) {
      li.dataset.repeats = String(repeats);
      const n = document.createElement('small');
      n.textContent = `\u00d7${repeats}`;
      n.title = `${repeats} times`;
      li.append(n);
    }
    list.prepend(li);
    while (list.childElementCount > max) list.lastElementChild.remove();
  }

  state.on('history', ({ events, restarted }) => {
    if (restarted) add('server restarted', { kind: 'restart' });
    for (const ev of events) add(describeEvent(ev), { seq: ev.seq, kind: ev.kind, key: eventKey(ev), time: new Date(ev.at) });
  });
}
