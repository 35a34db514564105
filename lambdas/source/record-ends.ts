import { headBytes, LITTLE_ENDIAN, scanBlocks, STEP_BYTES, wordView, type EndList } from './block-scan.js';
import { blockTables, type BlockTables } from './quote-blocks.js';
import { FIELD_START, RECORD_END, STATE_MASK, transitionTable, type DfaDialect } from './quote-dfa.js';

/** Room for this many record ends at first; doubled when a buffer holds more (a 1 MiB buffer of CSV ~10,000). */
const FIRST_CAPACITY = 4096;

/**
 * The record ends of one buffer of a quoting dialect, found in one pass when the buffer is fed and handed out
 * in order by `take`. One pass over the whole buffer, not one call per record, keeps the per-record cost of
 * the block walk (quote-blocks.ts) to two array stores.
 */
export class RecordEnds implements EndList {
  /** LFs consumed up to the last end taken, or up to the buffer's end once `take` gave -1. */
  lines = 0;
  /** The automaton's state there (FIELD_START after an end). */
  state = FIELD_START;
  private readonly table: Uint8Array;
  private readonly blocks: BlockTables;
  /**
   * EndList: the ends found in the current buffer, with the buffer's own LFs up to each (a stream's line count
   * may pass 2^31; a buffer's does not in practice, and doubles hold any Buffer's length exactly).
   */
  ends = new Float64Array(FIRST_CAPACITY);
  linesAt = new Float64Array(FIRST_CAPACITY);
  count = 0;
  private taken = 0;
  /** LFs consumed before the current buffer. */
  private linesBefore = 0;
  private finalState = FIELD_START;
  private finalLines = 0;

  constructor(dialect: DfaDialect) {
    this.table = transitionTable(dialect);
    this.blocks = blockTables(dialect);
  }

  /** Finds every record end of `buf`, whose first byte is read in `state` with `lines` LFs consumed before it. */
  scan(buf: Uint8Array, state: number, lines: number): void {
    this.count = 0;
    this.taken = 0;
    this.lines = lines;
    this.state = state;
    this.linesBefore = lines;
    const at = { state, lines: 0 };
    // The words start at an aligned address: the bytes before it go through the byte table, and so does all of a
    // buffer on a big-endian machine (none runs Node on Lambda; the tables assume the first byte lowest).
    let i = walkBytes(this.table, buf, 0, LITTLE_ENDIAN ? headBytes(buf) : buf.length, at, this);
    const words = wordView(buf);
    for (i = scanBlocks(this.blocks, buf, words, i, at, this); i <= buf.length - STEP_BYTES;) {
      this.grow();
      i = scanBlocks(this.blocks, buf, words, i, at, this);
    }
    walkBytes(this.table, buf, i, buf.length, at, this);
    this.finalState = at.state;
    this.finalLines = lines + at.lines;
  }

  /**
   * The next end at or past `atLeast` (ends before it are passed over, as the byte walk did), or -1 when the
   * buffer has none left; `lines` and `state` then describe the point returned (or the buffer's end).
   */
  take(atLeast: number): number {
    const { ends, count } = this;
    let k = this.taken;
    while (k < count && ends[k] < atLeast) k++;
    if (k === count) {
      this.taken = count;
      this.lines = this.finalLines;
      this.state = this.finalState;
      return -1;
    }
    this.taken = k + 1;
    this.lines = this.linesBefore + this.linesAt[k];
    this.state = FIELD_START;
    return ends[k];
  }

  /** EndList: doubles the room for ends. */
  grow(): void {
    const ends = new Float64Array(this.ends.length * 2);
    const linesAt = new Float64Array(this.ends.length * 2);
    ends.set(this.ends);
    linesAt.set(this.linesAt);
    this.ends = ends;
    this.linesAt = linesAt;
  }
}

/** The byte table over `buf[from, to)`, adding its record ends to `out`; returns `to`. */
function walkBytes(
  table: Uint8Array,
  buf: Uint8Array,
  from: number,
  to: number,
  at: { state: number; lines: number },
  out: EndList,
): number {
  let { state, lines } = at;
  for (let i = from; i < to; i++) {
    const entry = table[(state << 8) | buf[i]];
    if (entry > STATE_MASK) {
      lines++;
      if ((entry & RECORD_END) !== 0) {
        if (out.count === out.ends.length) out.grow();
        out.ends[out.count] = i + 1;
        out.linesAt[out.count++] = lines;
      }
    }
    state = entry & STATE_MASK;
  }
  at.state = state;
  at.lines = lines;
  return to;
}
