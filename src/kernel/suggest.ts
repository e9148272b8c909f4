// Bounded edit distance for did-you-mean suggestions. A name comes from outside (a scenario file, a
// control command, a request): its length is not ours to choose, so the cost of comparing it must
// not grow with it. Two bounds keep it small:
//
// - a length check first: two words whose lengths differ by more than the allowed number of edits
//   cannot be that close, so a 40,000-character name is compared with nothing;
// - a banded distance: only the diagonal band of width 2k+1 of the alignment table is filled (cells
//   outside it are more than k edits anyway), two rows at a time, and the comparison stops as soon
//   as every cell of a row is past k. The cost is O(min(n, m) · k) time and O(k) memory.
//
// The distance is the optimal string alignment one (Damerau-Levenshtein without edits of a moved
// pair): a swapped pair of neighbouring letters ("PSOT", "licnese") costs one edit, as typists make them.

/**
 * The optimal-string-alignment distance between `a` and `b` when it is at most `max`, else
 * `max + 1` (meaning "further than max"; the exact distance is not computed).
 */
export function boundedDistance(a: string, b: string, max: number): number {
  const k = Math.max(0, Math.floor(max));
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > k) return k + 1;
  if (n === 0 || m === 0) return Math.max(n, m);
  const INF = k + 1;
  const width = m + 1;
  // Three rows of the table (i-2, i-1, i), each m+1 cells but only the band [i-k, i+k] is written.
  // Memory is O(m) for the rows; m is at most n + k here, and every caller passes short candidates.
  let prev2 = new Uint32Array(width).fill(INF);
  let prev = new Uint32Array(width).fill(INF);
  let cur = new Uint32Array(width).fill(INF);
  for (let j = 0; j <= Math.min(m, k); j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    cur.fill(INF);
    if (i <= k) cur[0] = i;
    let rowMin = cur[0];
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let d = prev[j - 1] + cost;
      const del = prev[j] + 1;
      if (del < d) d = del;
      const ins = cur[j - 1] + 1;
      if (ins < d) d = ins;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        const tr = prev2[j - 2] + 1;
        if (tr < d) d = tr;
      }
      cur[j] = d > INF ? INF : d;
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    // Every path to the last cell goes through this row: past k here, past k there.
    if (rowMin > k) return INF;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m] > k ? INF : prev[m];
}

/**
 * The closest candidate to `input` within `maxEdits(input)` edits (ties: the first listed), or
 * undefined. `fold` compares words with differences that are not typos ignored (case, separators);
 * a candidate equal to `input` after folding is returned at once, unless it is `input` itself.
 */
export function closest(input: string, candidates: readonly string[], options: { maxEdits: (input: string) => number; fold?: (w: string) => string; compare?: (w: string) => string }): string | undefined {
  const longest = candidates.reduce((n, c) => Math.max(n, c.length), 0);
  const limit = Math.max(0, Math.floor(options.maxEdits(input)));
  // A name longer than every candidate by more than the allowed edits is near none of them: answer
  // before looking at its letters (folding or lowering a 40,000-character name costs memory too).
  if (input.length > longest + limit) return undefined;
  const fold = options.fold;
  if (fold) {
    const folded = fold(input);
    const same = candidates.find((c) => fold(c) === folded);
    if (same !== undefined) return same === input ? undefined : same;
  }
  const compare = options.compare ?? ((w: string) => w);
  const key = compare(input);
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = boundedDistance(key, compare(candidate), bestDistance - 1);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** A name as an error message quotes it: whole when short, else its start and its length (the sender chose how long it is). */
export function quoteName(name: string, max = 60): string {
  return name.length <= max ? `"${name}"` : `"${name.slice(0, max - 3)}..." (${name.length} characters)`;
}
