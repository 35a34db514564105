/**
 * The candidate closest to `word`, when one is close enough to be what the user meant: a typo of one or two
 * edits (a swap of two neighbours counts as one: `tabel` → `table`), or a word it starts (`create` →
 * `create-table`). Null when nothing is that close, so no suggestion beats a wrong one.
 *
 * @example
 * closest('tabel', ['table', 'types']); // 'table'
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  const prefixed = candidates.filter((c) => word.length >= 3 && c.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  // Two edits at most, and fewer than a third of the word: `ab` is not a typo of `cd`.
  const allowed = Math.min(2, Math.max(1, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance <= allowed && (best === null || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate ?? null;
}

/** ` (did you mean --table?)`, or '' when nothing is close. */
export function suggestion(word: string, candidates: readonly string[], prefix = ''): string {
  const near = closest(word, candidates);
  return near === null ? '' : ` (did you mean ${prefix}${near}?)`;
}

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`: the optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
