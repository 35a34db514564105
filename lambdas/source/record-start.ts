import { FIELD_START, nextRecordEnd, runAll, STATES, transitionTable } from './quote-dfa.js';
import { bomLength, type ScannerDialect } from './record-scanner.js';

/** Streams bytes [start, end) of the object. */
export type ReadRange = (start: number, end: number) => AsyncIterable<Buffer>;

/**
 * The first look-back of a lane that starts mid-object in a quoted CSV. Real data settles the quote state
 * within a field or two (tens of bytes); 64 KiB is one small GET, and covers any field up to that long.
 */
export const FIRST_LOOK_BACK_BYTES = 64 * 1024;

/**
 * The offset of the first record boundary at or after `start` (`size` when no record starts there) in an object
 * of `size` bytes: a lane given the byte range [start, end) owns the records
 * that start in it (Hadoop's LineRecordReader rule), and its neighbour before it reads past `start` to finish
 * the record it started, so the two agree on every boundary.
 *
 * With quoting off, the boundary is just past the first LF at or after `start - 1`. With quotes, the state at
 * `start - 1` is learned first: the automaton is run over a look-back window [start - 1 - W, start - 1) from
 * every state at once; once all runs agree, the state is known exactly (real data converges within a field or
 * two); until they do, W doubles, down to the object's start, where the state is known (a record start past the
 * BOM). Exact, with no coordination between lanes; only pathological input (a quoted field longer than the
 * window, or a window with no quote at all) looks further back.
 */
export async function recordStartAtOrAfter(
  dialect: ScannerDialect,
  read: ReadRange,
  start: number,
  size: number,
  firstWindow = FIRST_LOOK_BACK_BYTES,
): Promise<number> {
  if (start <= 0) return 0;
  if (start >= size) return size;
  const table = transitionTable(dialect);
  const state = dialect.quote === undefined ? FIELD_START : await stateBefore(table, read, start - 1, firstWindow);
  // Walks forward from `start - 1` (the byte that may be the LF ending the record before `start`).
  // Reads in windows that double (a record may be longer than any guess) rather than to the object's end.
  const at = { state };
  for (let from = start - 1, window = firstWindow; from < size; window *= 2) {
    const to = Math.min(size, from + window);
    for await (const buf of read(from, to)) {
      const end = nextRecordEnd(table, buf, 0, at);
      if (end !== -1) return from + end;
      from += buf.length;
    }
  }
  return size;
}

/** The automaton's state just before byte `position`, learned by a look-back that doubles until it converges. */
async function stateBefore(table: Uint8Array, read: ReadRange, position: number, first: number): Promise<number> {
  for (let window = first; ; window *= 2) {
    const from = Math.max(0, position - window);
    const bytes = await readAll(read(from, position));
    if (from === 0) {
      // The object's start: a record start, past a BOM (the header is scanned from there too).
      const states = [FIELD_START];
      runAll(table, bytes, bomLength(bytes), bytes.length, fill(states));
      return states[0];
    }
    const states = Array.from({ length: STATES }, (_, state) => state);
    if (runAll(table, bytes, 0, bytes.length, states)) return states[0];
  }
}

/** One known state in all four runs: they stay together. */
function fill(states: number[]): number[] {
  states.length = STATES;
  return states.fill(states[0]);
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}
