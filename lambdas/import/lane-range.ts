import type { Checkpoint, Chunk } from '../contract/workflow-payloads.js';
import { RecordTooLongError } from '../contract/errors.js';
import { MAX_LOOK_BACK_BYTES, recordStartAtOrAfter, type ReadRange } from '../source/record-start.js';
import type { ScannerDialect } from '../source/record-scanner.js';

/**
 * Past a chunk's end, the rest of its last record is read in GETs of this size and then twice the last: most
 * records end within a few hundred bytes, and a record of any length is still read in a few requests rather
 * than with one GET to the end of a terabyte object.
 */
export const FIRST_TAIL_BYTES = 64 * 1024;

/**
 * Where an invocation of a chunk starts: its checkpoint when it has one; a chunk that starts on a record boundary
 * (it has a `line`) at its start; any other at the first record that starts at or after its start, numbered
 * line 1 (its lines are counted from there; Summarize makes them absolute). When no record starts in
 * [start, end), the offset returned is at or past `end`: the chunk has nothing of its own to import.
 */
export async function laneFrom(
  chunk: Chunk,
  next: Checkpoint | undefined | null,
  dialect: () => ScannerDialect,
  read: ReadRange,
  size: number,
): Promise<Checkpoint> {
  if (next) return next;
  if (chunk.line !== undefined) return { offset: chunk.start, line: chunk.line };
  // Only a byte range looks for its first record: a format without byte records (Parquet) never gets here.
  return { offset: await recordStartAtOrAfter(dialect(), read, chunk.start, size), line: 1 };
}

/**
 * The bytes a lane reads: [from, end), then, when `end` is not the object's end, the bytes after it in growing
 * GETs; the reader stops taking them once its last record is finished (chunk-importer.ts).
 */
export async function* lanePieces(read: ReadRange, from: number, end: number, size: number): AsyncGenerator<Buffer> {
  if (from >= end) return;
  yield* read(from, end);
  for (let at = end, window = FIRST_TAIL_BYTES; at < size; window *= 2) {
    const to = Math.min(size, at + window);
    yield* read(at, to);
    at = to;
  }
}

/** The LFs a finished chunk's records hold: from its first record's line to the line after its last. */
export function chunkLines(chunk: Chunk, lineAfter: number): number {
  return lineAfter - (chunk.line ?? 1);
}

/** The error for a quoted-CSV record longer than a lane looks back: the import cannot be split exactly around it. */
export function recordTooLong(offset: number, line: number, length: number): RecordTooLongError {
  return new RecordTooLongError(
    `the record at byte ${offset} (line ${line} of its chunk) is ${length} bytes, longer than the ` +
      `${MAX_LOOK_BACK_BYTES / 1024 / 1024} MiB a lane looks back for the quote state: a lane may have started ` +
      'inside it; such a record cannot be an item (400 KB): fix or remove it, or import with quote "" if the file has no quoted fields',
  );
}
