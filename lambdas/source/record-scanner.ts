import { FIELD_START, IN_FIELD, QUOTED, QUOTE_IN_QUOTED, STATE_MASK, transitionTable } from './quote-dfa.js';
import { RecordEnds } from './record-ends.js';

const LF = 0x0a;

/** The CSV dialect bytes the scanner needs. `quote` undefined turns quoting off (plain TSV). */
export interface ScannerDialect {
  readonly delimiter: number;
  readonly quote: number | undefined;
}

/** Turns the format's one-character strings into the bytes the scanner compares. */
export function scannerDialect(format: { delimiter: string; quote: string }): ScannerDialect {
  return {
    delimiter: Buffer.from(format.delimiter, 'utf8')[0],
    quote: format.quote === '' ? undefined : Buffer.from(format.quote, 'utf8')[0],
  };
}

/**
 * Finds record boundaries in a byte stream fed one buffer at a time. A record ends at a LF that is not
 * inside a quoted field (so CRLF ends a record too; the CR stays with the record for the parser).
 * A quote opens a quoted field only at the start of a field, as csv-parse with `relax_quotes` reads it:
 * `ab"c` is a literal quote, `"a""b"` an escaped one (the automaton in quote-dfa.ts). Every LF is counted,
 * so `lines` gives physical line numbers.
 *
 * Two paths, chosen per buffer, because their costs differ by data: a buffer without a quote (TSV,
 * unquoted CSV) is crossed with `indexOf` jumps from LF to LF (memchr, several GB/s); a buffer with quotes
 * is walked once when fed, 16 bytes a step through tables of the automaton composed over 8 bytes
 * (quote-blocks.ts, block-scan.ts), into a list of its record ends that `next` hands out (a native call per
 * quote, ~30-60 ns, made quote-dense CSV 3-4x slower than looking at each byte; one table lookup per byte ran at
 * 0.35 GB/s, the block walk at ~1.1: docs/performance.md).
 */
export class RecordScanner {
  /** LFs consumed so far, inside quotes or not. */
  lines = 0;
  /** The automaton's state before `buf[pos]` (quote-dfa.ts). */
  private state: number;
  private readonly table: Uint8Array;
  /** The record-end list, made on the first buffer with quotes (its tables take a few ms to build). */
  private ends: RecordEnds | undefined;
  /** The current buffer's record ends when it holds quotes; undefined: no quote ahead, LF jumps are enough. */
  private quoted: RecordEnds | undefined;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** Cached index of the next LF at or after `pos` (-1: none), for the jump path. */
  private nextLf = -1;
  /** Cached result of a look-ahead LF search past `pos`: the first LF at or after `lfFrom` (-1: none). */
  private lfFrom = 0;
  private lfAt = -1;

  /** `state`: where the stream starts; a record start (FIELD_START) unless a lane knows better. */
  constructor(
    private readonly dialect: ScannerDialect,
    state = FIELD_START,
  ) {
    this.table = transitionTable(dialect);
    this.state = state;
  }

  /** True when the bytes consumed so far end inside a quoted field. */
  get insideQuotes(): boolean {
    return this.state >= QUOTED;
  }

  /** Starts on the next buffer of the stream; the previous one must be fully consumed (next() gave -1). */
  feed(buf: Buffer): void {
    this.buf = buf;
    this.pos = 0;
    // After a quote inside a quoted field, the next byte decides: the ends path walks that one state.
    const quoteFree =
      this.dialect.quote === undefined || (this.state !== QUOTE_IN_QUOTED && buf.indexOf(this.dialect.quote) === -1);
    this.quoted = quoteFree ? undefined : (this.ends ??= new RecordEnds(this.dialect));
    if (this.quoted) this.quoted.scan(buf, this.state, this.lines);
    else this.nextLf = buf.indexOf(LF);
    this.lfFrom = 0;
    this.lfAt = this.nextLf;
  }

  /**
   * Consumes the current buffer up to and including the first record-ending LF whose end index is at
   * least `atLeast`, and returns that end index (exclusive). Returns -1 once the buffer is consumed.
   */
  next(atLeast = 0): number {
    return this.quoted ? this.nextFromEnds(this.quoted, atLeast) : this.nextByJumps(atLeast);
  }

  /** No quote ahead in this buffer: the quote state cannot change, so every LF outside quotes ends a record. */
  private nextByJumps(atLeast: number): number {
    const end = this.buf.length;
    const inQuotes = this.state === QUOTED;
    const lf = inQuotes ? -1 : atLeast - 1 <= this.pos ? this.nextLf : this.findLf(atLeast - 1);
    if (lf === -1) {
      this.countLfsBefore(end);
      if (!inQuotes && end > this.pos) this.state = this.table[(IN_FIELD << 8) | this.buf[end - 1]] & STATE_MASK;
      this.pos = end;
      return -1;
    }
    this.countLfsBefore(lf + 1);
    this.state = FIELD_START;
    this.pos = lf + 1;
    return lf + 1;
  }

  /** Quotes ahead: the next of the ends that the buffer's one pass found (record-ends.ts). */
  private nextFromEnds(ends: RecordEnds, atLeast: number): number {
    const end = ends.take(atLeast);
    this.lines = ends.lines;
    this.state = ends.state;
    this.pos = end === -1 ? this.buf.length : end;
    return end;
  }

  /** Counts the LFs from `pos` up to (not including) `end`, walking the cached LF pointer. */
  private countLfsBefore(end: number): void {
    const { buf } = this;
    while (this.nextLf !== -1 && this.nextLf < end) {
      this.lines++;
      this.nextLf = buf.indexOf(LF, this.nextLf + 1);
    }
  }

  /** The first LF at or after `from` (past `pos`), cached for repeated look-aheads to the same target. */
  private findLf(from: number): number {
    const cacheHolds = from >= this.lfFrom && (this.lfAt === -1 || from <= this.lfAt);
    if (!cacheHolds) {
      this.lfFrom = from;
      this.lfAt = this.buf.indexOf(LF, from);
    }
    return this.lfAt;
  }
}

/** Length of a UTF-8 byte order mark at the start of `buf` (0 or 3). */
export function bomLength(buf: Buffer): number {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
}
