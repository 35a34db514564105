import { open } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';

/** Reasons shown under the rejects line: enough to see what went wrong, few enough to read at a glance. */
export const REASONS_SHOWN = 3;
/** Of each rejects file, this much is read: its first rows hold the first reasons; a file can be gigabytes. */
const HEAD_BYTES = 64 * 1024;

/** A rejected row's line and reason, as the rejects file states them. */
export interface RejectReason {
  readonly line: string;
  readonly object: string;
  readonly reason: string;
}

/**
 * The first rejected rows of distinct kinds, in the order of `files` (the rejects CSVs: `line,byte_offset,reason,
 * record,object`). Two reasons are of one kind when they differ only in the value they quote at their end
 * (`column "n": not a number: "x"` and `... "y"`), so three rows of one mistake show as one.
 *
 * @example
 * await firstReasons(['rejects/0.csv']); // [{ line: '3', object: 'in/a.csv', reason: 'column "n": not a number: "x"' }]
 */
export async function firstReasons(files: readonly string[], count = REASONS_SHOWN): Promise<RejectReason[]> {
  const found: RejectReason[] = [];
  const kinds = new Set<string>();
  for (const file of files.filter((f) => f.endsWith('.csv'))) {
    for (const row of parse(await head(file), { relax_quotes: true, skip_records_with_error: true }) as string[][]) {
      const [line, , reason, , object = ''] = row;
      if (line === 'line' || reason === undefined) continue; // the header row
      const kind = reason.replace(/: "[^"]*"$/, '');
      if (kinds.has(kind)) continue;
      kinds.add(kind);
      found.push({ line, object, reason });
      if (found.length === count) return found;
    }
  }
  return found;
}

/** The file's first HEAD_BYTES, cut after its last whole line. */
async function head(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return bytesRead < HEAD_BYTES ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  } finally {
    await handle.close();
  }
}
