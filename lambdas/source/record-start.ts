import { buffer } from 'node:stream/consumers';
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
 * The furthest a lane looks back. Unbounded, a quoting dialect over data with no quote at all (CSV and TSV quote
 * by default) would never converge and every lane would read the object up to its start: n^2 reads. 16 MiB is
 * 4 x MAX_RECORD_BYTES (a record past 4 MiB is already rejected unread): only a record longer than this could
 * hide a quoted field that puts a lane's start inside quotes, and such a record fails the import by name.
 */
export const MAX_LOOK_BACK_BYTES = 16 * 1024 * 1024;
const UTF8_BOM_BYTES = 3;

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
 * BOM), or up to MAX_LOOK_BACK_BYTES: past it, only a record longer than that (which fails the import by name)
 * could make the start quoted. Exact with no coordination between lanes for any file whose records are shorter
 * than 16 MiB; a quoted field longer than the window, or a window with no quote at all, only looks further back.
 */
export async function recordStartAtOrAfter(
  dialect: ScannerDialect,
  read: ReadRange,
  start: number,
  size: number,
  firstWindow = FIRST_LOOK_BACK_BYTES,
  maxLookBack = MAX_LOOK_BACK_BYTES,
): Promise<number> {
  if (start <= 0) return 0;
  if (start >= size) return size;
  // Inside or just past a BOM (the first range of an object without a header): the data starts past it.
  if (start <= UTF8_BOM_BYTES && bomLength(await buffer(read(0, Math.min(size, UTF8_BOM_BYTES)))) === start)
    return start;
  const table = transitionTable(dialect);
  const state =
    dialect.quote === undefined ? FIELD_START : await stateBefore(table, read, start - 1, firstWindow, maxLookBack);
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

/**
 * The automaton's state just before byte `position`, learned by a look-back that doubles until its runs converge.
 * Each wider window runs only its new, earlier bytes (from every state, giving where each lands at the old
 * window's start) and composes them with what the old window did, so no byte is read twice.
 */
async function stateBefore(
  table: Uint8Array,
  read: ReadRange,
  position: number,
  first: number,
  maxLookBack: number,
): Promise<number> {
  // after[s]: the state at `position` of a run in state s at `known` (the current window's start).
  let after = Array.from({ length: STATES }, (_, state) => state);
  let known = position;
  for (let window = first; ; window *= 2) {
    const from = Math.max(0, position - window);
    const bytes = await buffer(read(from, known));
    if (from === 0) {
      // The object's start: a record start, past a BOM (the header is scanned from there too).
      const states = new Array<number>(STATES).fill(FIELD_START);
      runAll(table, bytes, bomLength(bytes), bytes.length, states);
      return after[states[0]];
    }
    const states = Array.from({ length: STATES }, (_, state) => state);
    runAll(table, bytes, 0, bytes.length, states);
    after = states.map((state) => after[state]);
    known = from;
    if (after.every((state) => state === after[0])) return after[0];
    // No quote settled it in this far: only a quoted field longer than the look-back could put `position` inside
    // quotes, and a record that long fails the import by name (chunk-importer.ts), so take the run from a record start.
    if (position - from >= maxLookBack) return after[FIELD_START];
  }
}
