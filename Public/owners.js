// Who added each cell: the `owners` runs of a frame ([clientId, firstId, lastId], inclusive,
// ascending, not overlapping), looked up by id, and the colour slot of every cell of a
// membership list. Pure, no DOM.

/** Valid runs of a frame's `owners` field, sorted by first id (none when it is not an array). */
export function normalizeRuns(raw) {
  const runs = [];
  if (!Array.isArray(raw)) return runs;
  for (const run of raw) {
    if (!Array.isArray(run) || run.length < 3) continue;
    const [client, first, last] = run;
    if (typeof client !== 'string' || !Number.isFinite(first) || !Number.isFinite(last) || last < first) continue;
    runs.push([client, first, last]);
  }
  runs.sort((a, b) => a[1] - b[1]);
  return runs;
}

/** The client of the run covering `id`, null when none does. */
export function ownerOf(runs, id) {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid];
    if (id < run[1]) hi = mid - 1;
    else if (id > run[2]) lo = mid + 1;
    else return run[0];
  }
  return null;
}

/** Same runs (as normalized)? */
export function sameRuns(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1] || a[i][2] !== b[i][2]) return false;
  return true;
}

/**
 * Colour slots of cells `ids` given `ownerOfId` (id -> client or null): slot 0 is "no known
 * owner", then one slot per client in order of first appearance. Returns {slots (Uint16Array,
 * one per cell), owners (slot -> client, owners[0] = null), counts (slot -> cells)}.
 */
export function ownerSlots(ids, ownerOfId) {
  const slots = new Uint16Array(ids.length);
  const owners = [null];
  const counts = [0];
  const slotOf = new Map();
  let lastClient;
  let lastSlot = 0;
  for (let i = 0; i < ids.length; i++) {
    const client = ownerOfId(ids[i]);
    let s = 0;
    if (client === lastClient) {
      s = lastSlot; // runs are long: most cells share the previous one's owner
    } else if (client !== null && client !== undefined) {
      s = slotOf.get(client);
      if (s === undefined) {
        s = owners.length < 0xffff ? owners.length : 0;
        if (s) {
          slotOf.set(client, s);
          owners.push(client);
          counts.push(0);
        }
      }
    }
    lastClient = client;
    lastSlot = s;
    slots[i] = s;
    counts[s]++;
  }
  return { slots, owners, counts };
}

/**
 * How a tooltip names a cell's owner: "added by you", "added by c3", or "restored" (the
 * server names nobody for it: it came from a state file).
 */
export function describeOwner(client, me) {
  if (client) return client === me ? 'added by you' : `added by ${client}`;
  return 'restored';
}
