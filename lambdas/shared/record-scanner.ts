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
 * line numbers. It jumps with `indexOf` (memchr) instead of looping over bytes.
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
  /** Cached index of the next quote at or after `pos` in `buf` (-1: none), so long runs are searched once. */
  private nextQuote = -1;
  /** Cached index of the next LF at or after `pos` (-1: none): each LF is searched for once. */
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
    this.nextQuote = this.findQuote(0);
    this.nextLf = buf.indexOf(LF, 0);
    this.lfFrom = 0;
    this.lfAt = this.nextLf;
    if (this.quotePending && buf.length > 0) {
      // An empty buffer says nothing about the quote before it: keep waiting for the next byte.
      this.quotePending = false;
      if (buf[0] === this.dialect.quote) this.skipTo(1); // `""` split across buffers
      else this.inQuotes = false;
    }
  }

  /**
   * Consumes the current buffer up to and including the first record-ending LF whose end index is at
   * least `atLeast`, and returns that end index (exclusive). Returns -1 once the buffer is consumed.
   */
  next(atLeast = 0): number {
    const { buf } = this;
    while (this.pos < buf.length) {
      if (this.inQuotes) {
        this.consumeQuoted();
        continue;
      }
      const quoteAt = this.nextQuote === -1 ? buf.length : this.nextQuote;
      const lf = atLeast - 1 <= this.pos ? this.nextLf : this.findLf(atLeast - 1);
      if (lf !== -1 && lf < quoteAt) {
        this.skipTo(lf + 1);
        return lf + 1;
      }
      this.skipTo(quoteAt);
      if (quoteAt < buf.length) this.consumeUnquotedQuote(quoteAt);
    }
    return -1;
  }

  private consumeQuoted(): void {
    const { buf } = this;
    if (this.nextQuote === -1) {
      this.skipTo(buf.length);
      return;
    }
    const at = this.nextQuote;
    this.skipTo(at + 1);
    if (at + 1 === buf.length) this.quotePending = true;
    else if (buf[at + 1] === this.dialect.quote) this.skipTo(at + 2);
    else this.inQuotes = false;
  }

  /** A quote met outside quotes opens a quoted field only where a field starts. */
  private consumeUnquotedQuote(at: number): void {
    const before = at === 0 ? this.previousByte : this.buf[at - 1];
    if (before === this.dialect.delimiter || before === LF) this.inQuotes = true;
    this.skipTo(at + 1);
  }

  /** Moves `pos` forward, counting the LFs passed and refreshing the caches it passed. */
  private skipTo(end: number): void {
    const { buf } = this;
    while (this.nextLf !== -1 && this.nextLf < end) {
      this.lines++;
      this.nextLf = buf.indexOf(LF, this.nextLf + 1);
    }
    this.pos = end;
    if (this.nextQuote !== -1 && this.nextQuote < end) this.nextQuote = this.findQuote(end);
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

  private findQuote(from: number): number {
    return this.dialect.quote === undefined ? -1 : this.buf.indexOf(this.dialect.quote, from);
  }
}

/** Length of a UTF-8 byte order mark at the start of `buf` (0 or 3). */
export function bomLength(buf: Buffer): number {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
}
