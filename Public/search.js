// Finding a cell by its label or id, as you type (the panel's search field, searchbox.js).
// Case and accents do not matter ("miserables" finds "Misérables", "ETOILE" finds "Étoile"):
// labels are folded once, when the index is built, and each query is folded the same way.
// The index is built once per cells' data (its version) and membership, when a query first
// needs it, never per key typed; a query is one pass over the folded labels with indexOf.
// Pure, no DOM.
//
// Ranking, best first: the whole label; the label's start; a word's start; anywhere inside.
// Then the shorter label (a closer match), then the lower id (older cells first). An id typed
// as digits (or "#12") finds that cell first. Measured by `make bench-page`'s search row.

/** Lower case without accents or other combining marks: how labels and queries compare. */
export function fold(text) {
  return String(text).normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const RANK = { exact: 0, prefix: 1, word: 2, inside: 3 };
const WORD_START = /[\s\-_.,;:/()[\]'"]/;

// How well folded label `f` matches `q`, found first at `at`.
function rankOf(f, q, at) {
  if (at === 0) return f.length === q.length ? RANK.exact : RANK.prefix;
  // a later occurrence may start a word ("val" in "jean valjean")
  for (let j = at; j > 0; j = f.indexOf(q, j + 1)) if (WORD_START.test(f[j - 1])) return RANK.word;
  return RANK.inside;
}

/**
 * The index of `ids` (the membership) with their data `cells` (Map id -> {label, key, group}).
 * Returns {size, query(text, limit)}: query gives up to `limit` matches {id, label, group,
 * rank} best first, and `total`, how many matched in all.
 */
export function createSearchIndex(ids, cells) {
  const n = ids.length;
  const folded = new Array(n);
  const labels = new Array(n);
  for (let i = 0; i < n; i++) {
    // a cell without a label is found by its key (its id in the user's data)
    const d = cells.get(ids[i]);
    labels[i] = typeof d?.label === 'string' ? d.label : d?.key !== undefined ? String(d.key) : '';
    folded[i] = labels[i] === '' ? '' : fold(labels[i]);
  }
  const position = new Map();
  for (let i = 0; i < n; i++) position.set(ids[i], i);

  function match(i, id, rank) {
    return { id, label: labels[i], group: cells.get(id)?.group, rank };
  }

  function query(text, limit = 10) {
    const q = fold(text).trim();
    if (q === '') return { matches: [], total: 0 };
    const idText = /^#?(\d+)$/.exec(q);
    const byId = idText ? Number(idText[1]) : null;
    const head = byId !== null && position.has(byId) ? [match(position.get(byId), byId, -1)] : [];
    const keep = Math.max(0, limit - head.length);
    // the best `keep` in a small sorted list: most queries of a letter or two match most
    // labels, and sorting all of them would cost a frame or more at 100k
    const best = [];
    const before = (a, b) => a.rank - b.rank || folded[a.i].length - folded[b.i].length || ids[a.i] - ids[b.i];
    let total = head.length;
    for (let i = 0; i < n; i++) {
      const f = folded[i];
      const at = f.indexOf(q);
      if (at < 0 || ids[i] === byId) continue;
      total++;
      if (keep === 0) continue;
      // most matches cannot enter a full list: the best rank they could have says so cheaply
      if (best.length === keep && (at === 0 ? (f.length === q.length ? RANK.exact : RANK.prefix) : RANK.word) > best[keep - 1].rank) continue;
      const m = { i, rank: rankOf(f, q, at) };
      if (best.length === keep && before(m, best[keep - 1]) >= 0) continue;
      let j = best.length === keep ? keep - 1 : best.length;
      while (j > 0 && before(m, best[j - 1]) < 0) {
        best[j] = best[j - 1];
        j--;
      }
      best[j] = m;
    }
    return { matches: [...head, ...best.map(({ i, rank }) => match(i, ids[i], rank))], total };
  }

  return { size: n, query };
}

/**
 * An index kept for the state's membership and data: rebuilt only when a query comes after
 * either changed. `source()` gives {ids, cells, version}.
 */
export function createSearch(source) {
  let key = null;
  let index = null;
  function current() {
    const { ids, cells, version } = source();
    if (!key || key.ids !== ids || key.cells !== cells || key.version !== version) {
      index = createSearchIndex(ids, cells);
      key = { ids, cells, version };
    }
    return index;
  }
  return {
    query: (text, limit) => current().query(text, limit),
    /** Build the index now if it is stale (the field got the focus: the first key will not wait). */
    warm() {
      current();
    },
  };
}
