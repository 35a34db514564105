import { generateNgrams } from '../fixtures/ngrams.js';
import type { Item } from './aws.js';

/** A 1-gram TSV with rows that cannot become items, and what the table and the rejects must hold afterwards. */
export interface NgramFile {
  readonly text: string;
  readonly items: Item[];
  /** Rejected rows: their physical line in the file (the header is line 1) and the record as written. */
  readonly rejects: Array<{ line: number; record: string }>;
}

/** Bad records put after the good row with this index (0-based); each breaks one rule the request sets. */
const BAD_ROWS: Array<[number, string]> = [
  [10, 'bad_count\t1900\tmany\t3'], // match_count=N is not a number
  [500, '\t1901\t5\t3'], // empty partition key
  [1234, 'bad_year\tlast year\t5\t3'], // the sort key year is N
];

/** `rows` good 1-gram rows (multi-byte text among them) with {@link BAD_ROWS} spread through the file. */
export function ngramFileWithBadRows(rows: number, seed = 7): NgramFile {
  const generated = generateNgrams(rows, { header: false, seed });
  const lines = ['ngram\tyear\tmatch_count\tvolume_count'];
  const rejects: NgramFile['rejects'] = [];
  generated.rows.forEach((row, index) => {
    lines.push(`${row.ngram}\t${row.year}\t${row.match_count}\t${row.volume_count}`);
    for (const [after, record] of BAD_ROWS) {
      if (after !== index) continue;
      lines.push(record);
      rejects.push({ line: lines.length, record });
    }
  });
  const items = generated.rows.map((row) => ({
    ngram: { S: row.ngram },
    year: { N: String(row.year) },
    match_count: { N: String(row.match_count) },
    volume_count: { N: String(row.volume_count) },
  }));
  return { text: `${lines.join('\n')}\n`, items, rejects };
}

/** `start`'s flags for a 1-gram TSV into `table`. */
export const ngramArgs = (table: string) => ['--table', table, '--types', 'year=N,match_count=N,volume_count=N'];
