/** "Did you mean ...?" support shared by the loader and the validator. */

/**
 * Edit distance where insert, delete, substitute and swapping two adjacent
 * characters each cost 1 (optimal string alignment), since swapped letters
 * (`fianl`) are among the commonest typos.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      cur.push(d);
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Names longer than this get no suggestion: nobody mistypes a name of hundreds
 * of characters, and the edit distance of two long strings costs the product
 * of their lengths (two 30,000-character names stalled the statechart fuzzer).
 */
export const MAX_SUGGESTED_LENGTH = 256;

/**
 * The candidate closest to `name`, if it is close enough to be a plausible typo:
 * at most a third of the name's length (minimum 1, so one-letter slips on short
 * names still count). Case differences alone always count.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name === '') return undefined; // nothing was typed: any suggestion would be a guess
  if (name.length > MAX_SUGGESTED_LENGTH) return undefined;
  const limit = Math.max(1, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const sameLetters = candidate.toLowerCase() === lower;
    // The distance is at least the difference in length: a candidate that much longer or shorter cannot be close enough.
    if (!sameLetters && Math.abs(candidate.length - name.length) > limit) continue;
    const d = sameLetters ? 0.5 : editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** " Did you mean `x`?" or "" — appended to messages. */
export function didYouMean(closest: string | undefined): string {
  return closest === undefined ? '' : ` Did you mean \`${closest}\`?`;
}
