import { seededRandom } from '../test/fixtures/random.js';
import { partitionOf } from './capacity-model.js';

/** One file of the capacity figure. */
export interface CapacityFile {
  /** `random` (rows shuffled) or `sorted` (by partition key, a key's rows together). */
  readonly order: 'random' | 'sorted';
  readonly rowsPerKey: number;
  readonly partitions: number;
  readonly rows: number;
  /** Bytes of the `pad` column (0: no pad column), to model bigger items. */
  readonly padBytes: number;
}

/**
 * Partition key values that fall evenly on the P partitions: `keys / P` each. A file of a few thousand keys hashed
 * at random leaves some partitions a third busier than the mean, which would bound any writer below P·C; a big
 * file's millions of keys do not, and that is the case the model stands for.
 */
export function balancedKeys(keys: number, partitions: number): string[] {
  const perPartition = Math.ceil(keys / partitions);
  const count = new Array<number>(partitions).fill(0);
  const names: string[] = [];
  for (let n = 0; names.length < keys; n++) {
    const name = `key-${n.toString(36).padStart(5, '0')}`;
    const p = partitionOf({ S: name }, partitions);
    if (count[p] >= perPartition) continue;
    count[p]++;
    names.push(name);
  }
  return names;
}

/** Shuffles in place (Fisher-Yates) with a seeded generator, so every run sends the same file. */
function shuffle<T>(values: T[], random: () => number): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

/**
 * The file as 1-gram TSV (ngram = the partition key, year = the sort key), its rows by key in the file's order:
 * `rows / rowsPerKey` balanced keys with years 1800.. each; sorted by key, or shuffled.
 */
export function capacityTsv(file: CapacityFile): string {
  const keys = balancedKeys(Math.round(file.rows / file.rowsPerKey), file.partitions).sort();
  const random = seededRandom(37);
  const pad = file.padBytes > 0 ? 'x'.repeat(file.padBytes) : undefined;
  const lines: string[] = [];
  for (const key of keys) {
    for (let r = 0; r < file.rowsPerKey; r++) {
      const count = 1 + Math.floor(random() * 1000);
      const cells = [key, 1800 + r, count, 1 + (count % 97)];
      lines.push((pad ? [...cells, pad] : cells).join('\t'));
    }
  }
  const header = ['ngram', 'year', 'match_count', 'volume_count', ...(pad ? ['pad'] : [])].join('\t');
  const body = file.order === 'random' ? shuffle(lines, random) : lines;
  return `${header}\n${body.join('\n')}\n`;
}

/**
 * Rows of a case: `seconds` of the table's capacity (P·C items of one unit each), at least 2 keys per partition,
 * rounded up to whole keys per partition so each partition holds the same rows.
 */
export function capacityRows(partitions: number, tableUnits: number, rowsPerKey: number, seconds: number): number {
  const perRound = partitions * rowsPerKey;
  return Math.max(2, Math.ceil((tableUnits * seconds) / perRound)) * perRound;
}
