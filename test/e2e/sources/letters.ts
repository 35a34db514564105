import type { NgramRow } from '../../fixtures/ngrams.js';
import { seededRandom } from '../../fixtures/random.js';

export const NGRAM_HEADER = 'ngram\tyear\tmatch_count\tvolume_count';
export const NGRAM_TYPES = { match_count: 'N', volume_count: 'N' } as const;
export const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/**
 * A 1-gram TSV per letter, as Google Books ships them (one file per first letter), each with its own header:
 * `rows` rows of words starting with the letter, so keys never repeat across files.
 */
export function letterFile(
  letter: string,
  rows: number,
  seed = letter.charCodeAt(0),
): { text: string; rows: NgramRow[] } {
  const random = seededRandom(seed);
  const out: NgramRow[] = [];
  for (let i = 0; out.length < rows; i++) {
    for (let year = 1900; year < 1950 && out.length < rows; year++) {
      const match = 1 + Math.floor(random() * 1_000_000);
      out.push({ ngram: `${letter}${i}_é`, year, match_count: match, volume_count: 1 + Math.floor(random() * match) });
    }
  }
  const lines = out.map((r) => `${r.ngram}\t${r.year}\t${r.match_count}\t${r.volume_count}`);
  return { text: `${NGRAM_HEADER}\n${lines.join('\n')}\n`, rows: out };
}
