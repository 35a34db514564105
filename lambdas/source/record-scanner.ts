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
 * `ab"c` is a literal quote, `"a""b"` an escaped one. Every LF is counted, so `lines` gives physical
 * line numbers.
 *
 * Two paths, chosen per buffer, because their costs differ by data: a buffer without a quote (TSV,
 * unquoted CSV) is crossed with `indexOf` jumps from LF to LF (memchr, ~1 GB/s); a buffer with quotes
 * goes through one tight byte loop, since a native call per quote (~30-60 ns) made quote-dense CSV
 * 3-4x slower than looking at each byte once.
 */
export class RecordScanner {
  /** LFs consumed so far, inside quotes or not. */
  lines = 0;
  private inQuotes = false;
  /** In quotes, the previous buffer ended on a quote: closing, or the first half of `""`. */
  private quotePending = false;
  /** The byte before the current buffer; LF means "at the start of a record". */
  private previousByte = LF;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** The current buffer holds no quote byte at or after `pos` at feed time: LF jumps are enough. */
  private quoteFree = true;
  /** Cached index of the next LF at or after `pos` (-1: none), for the jump path. */
  private nextLf = -1;
  /** Cached result of a look-ahead LF search past `pos`: the first LF at or after `lfFrom` (-1: none). */
  private lfFrom = 0;
  private lfAt = -1;

  constructor(private readonly dialect: ScannerDialect) {}

  /** True when the bytes consumed so far end inside a quoted field. */
  get insideQuotes(): boolean {
    return this.inQuotes;
  }

  /** Starts on the next buffer of the stream; the previous one must be fully consumed (next() gave -1). */
  feed(buf: Buffer): void {
    if (this.buf.length > 0) this.previousByte = this.buf[this.buf.length - 1];
    this.buf = buf;
    this.pos = 0;
    if (this.quotePending && buf.length > 0) {
      // An empty buffer says nothing about the quote before it: keep waiting for the next byte.
      this.quotePending = false;
      if (buf[0] === this.dialect.quote)
        this.pos = 1; // `""` split across buffers: still in quotes
      else this.inQuotes = false;
    }
    this.quoteFree = this.dialect.quote === undefined || buf.indexOf(this.dialect.quote, this.pos) === -1;
    this.nextLf = buf.indexOf(LF, this.pos);
    this.lfFrom = this.pos;
    this.lfAt = this.nextLf;
  }

  /**
   * Consumes the current buffer up to and including the first record-ending LF whose end index is at
   * least `atLeast`, and returns that end index (exclusive). Returns -1 once the buffer is consumed.
   */
  next(atLeast = 0): number {
    return this.quoteFree ? this.nextByJumps(atLeast) : this.nextByBytes(atLeast);
  }

  /** No quote ahead in this buffer: the quote state cannot change, so every LF outside quotes ends a record. */
  private nextByJumps(atLeast: number): number {
    const end = this.buf.length;
    const lf = this.inQuotes ? -1 : atLeast - 1 <= this.pos ? this.nextLf : this.findLf(atLeast - 1);
    if (lf === -1) {
      this.countLfsBefore(end);
      this.pos = end;
      return -1;
    }
    this.countLfsBefore(lf + 1);
    this.pos = lf + 1;
    return lf + 1;
  }

  /** Quotes ahead: one pass over the bytes with the state in local variables. */
  private nextByBytes(atLeast: number): number {
    const { buf } = this;
    const { delimiter, quote } = this.dialect;
    const length = buf.length;
    let lines = this.lines;
    let inQuotes = this.inQuotes;
    let previous = this.pos === 0 ? this.previousByte : buf[this.pos - 1];
    for (let i = this.pos; i < length; i++) {
      const byte = buf[i];
      if (byte === LF) {
        lines++;
        if (!inQuotes && i + 1 >= atLeast) {
          this.lines = lines;
          this.inQuotes = false;
          this.pos = i + 1;
          return i + 1;
        }
      } else if (byte === quote) {
        if (!inQuotes)
          inQuotes = previous === delimiter || previous === LF; // only at a field start
        else if (i + 1 === length)
          this.quotePending = true; // decided by the next buffer's first byte
        else if (buf[i + 1] === quote)
          i++; // `""`: an escaped quote, still inside
        else inQuotes = false;
      }
      previous = byte;
    }
    this.lines = lines;
    this.inQuotes = inQuotes;
    this.pos = length;
    return -1;
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
