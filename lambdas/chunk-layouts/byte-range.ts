import type { Checkpoint } from '../contract/workflow-payloads.js';
import { RecordTooLongError } from '../contract/errors.js';
import { MAX_LOOK_BACK_BYTES, recordStartAtOrAfter, type ReadRange } from '../source/record-start.js';
import type { ScannerDialect } from '../source/record-scanner.js';
import type { ChunkPlan, ReadEnd } from './chunk-plan.js';

/**
 * Past a byte range's end, the rest of its last record is read in GETs of this size and then twice the last: most
 * records end within a few hundred bytes, and a record of any length is still read in a few requests rather
 * than with one GET to the end of a terabyte object.
 */
export const FIRST_TAIL_BYTES = 64 * 1024;

/**
 * Where an invocation starts (ChunkPlan.start): a known record boundary, or the first record that starts at or after
 * the byte range's start, numbered line 1 (its lines are counted from there; Summarize makes them absolute). When no
 * record starts in [start, end), the offset returned is at or past `end`: the chunk has nothing of its own to import.
 */
export async function invocationFrom(
  plan: Pick<ChunkPlan, 'start' | 'size'>,
  dialect: () => ScannerDialect,
  read: ReadRange,
): Promise<Checkpoint> {
  const { start } = plan;
  if (start.kind === 'at') return start.at;
  // Only a byte range of a plain object looks for its first record: its size is the object's.
  return { offset: await recordStartAtOrAfter(dialect(), read, start.offset, plan.size), line: 1 };
}

/** The offset before which records are the chunk's own: those starting at or past it are the next chunk's. */
export function ownRecordsEnd(readEnd: ReadEnd): number {
  return readEnd.kind === 'data-end' ? Number.POSITIVE_INFINITY : readEnd.end;
}

/**
 * The bytes an invocation reads from `from`: to the chunk's end; past it, when its last record may end later, in
 * growing GETs up to the object's size (the reader stops taking them once its last record is finished:
 * chunk-importer.ts); or to the end of the decompressed data.
 */
export async function* rangeBytes(read: ReadRange, from: number, readEnd: ReadEnd): AsyncGenerator<Buffer> {
  const end = ownRecordsEnd(readEnd);
  if (from >= end) return;
  yield* read(from, end);
  if (readEnd.kind !== 'last-record-past-end') return;
  for (let at = end, window = FIRST_TAIL_BYTES; at < readEnd.size; window *= 2) {
    const to = Math.min(readEnd.size, at + window);
    yield* read(at, to);
    at = to;
  }
}

/**
 * The error for a quoted-CSV record longer than a byte range looks back: the ranges cannot be cut exactly around it.
 * Its words ("a lane") are the README's, which users read.
 */
export function recordTooLong(offset: number, line: number, length: number): RecordTooLongError {
  return new RecordTooLongError(
    `the record at byte ${offset} (line ${line} of its chunk) is ${length} bytes, longer than the ` +
      `${MAX_LOOK_BACK_BYTES / 1024 / 1024} MiB a lane looks back for the quote state: a lane may have started ` +
      'inside it; such a record cannot be an item (400 KB): fix or remove it, or import with quote "" if the file has no quoted fields',
  );
}
