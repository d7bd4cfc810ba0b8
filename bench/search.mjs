// The page's search (Public/search.js) over 100k labelled cells, as `make bench-page` runs it:
// the index's build (once per membership or data change, when the field gets the focus) and
// each key of a name typed letter by letter, against the 16.7 ms of a 60 Hz frame. Node, no
// browser: the index is pure code, and V8 runs it the same way in Chromium.
//     node bench/search.mjs [cells]
import { createSearchIndex } from '../Public/search.js';

const cells = Number(process.argv[2]) || 100_000;
const FRAME_MS = 1000 / 60;
// names made of syllables (accents included), each a few words, as imported graphs have
const SYLLABLES = ['val', 'jean', 'ma', 'ri', 'us', 'co', 'set', 'te', 'ja', 'vert', 'fan', 'ti', 'ne', 'é', 'po',
  'ni', 'ga', 'vro', 'che', 'lou', 'bé', 'ron', 'dal', 'mi', 'ra', 'Thé', 'nar', 'dier', 'Ép', 'o'];
let seed = 7;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const word = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
const data = new Map();
const ids = [];
for (let id = 1; id <= cells; id++) {
  const name = `${word()} ${random() < 0.5 ? word() : ''}`.trim();
  data.set(id, { label: name[0].toUpperCase() + name.slice(1), group: String(id % 9) });
  ids.push(id);
}
data.set(4242, { label: 'Jean Valjean', group: '1' });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const builds = [];
let index;
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  index = createSearchIndex(ids, data);
  builds.push(performance.now() - t0);
}
console.log(`search over ${cells.toLocaleString('en-US')} labelled cells (node ${process.version}, load ${(await import('node:os')).loadavg()[0].toFixed(2)})`);
console.log(`index built in ${median(builds).toFixed(1)} ms (median of 5): once per change, when the field gets the focus`);
console.log('key typed | matches | median ms | max ms | within a frame');
let worst = 0;
for (const typed of ['valjean', 'ÉPONINE', 'thenard', '4242']) {
  for (let n = 1; n <= typed.length; n++) {
    const q = typed.slice(0, n);
    const times = [];
    let total = 0;
    for (let r = 0; r < 15; r++) {
      const t0 = performance.now();
      total = index.query(q, 8).total;
      times.push(performance.now() - t0);
    }
    const max = Math.max(...times);
    worst = Math.max(worst, median(times));
    console.log(`${q.padEnd(9)} | ${String(total).padStart(7)} | ${median(times).toFixed(2).padStart(9)} | ${max.toFixed(2).padStart(6)} | ${median(times) < FRAME_MS ? 'yes' : 'NO'}`);
  }
}
console.log(`worst key: ${worst.toFixed(2)} ms of a ${FRAME_MS.toFixed(1)} ms frame (${worst < FRAME_MS / 2 ? 'ok: under half a frame' : worst < FRAME_MS ? 'within a frame' : 'MISSED'})`);
