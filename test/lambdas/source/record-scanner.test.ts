import { describe, expect, it } from 'vitest';
import {
  RecordScanner,
  bomLength,
  scannerDialect,
  type ScannerDialect,
} from '../../../lambdas/source/record-scanner.js';
import { seededRandom } from '../../fixtures/random.js';

const CSV = scannerDialect({ delimiter: ',', quote: '"' });
const TSV = scannerDialect({ delimiter: '\t', quote: '"' });
const TSV_NO_QUOTES = scannerDialect({ delimiter: '\t', quote: '' });

interface ScanResult {
  /** Absolute end offsets of the records found, each just past its LF. */
  readonly boundaries: number[];
  /** `lines` right after each boundary was returned. */
  readonly linesAt: number[];
  /** `lines` once every piece was consumed. */
  readonly lines: number;
}

/** Feeds the pieces one after the other, draining each with next(), as planChunks and importChunk do. */
function scanPieces(pieces: readonly Buffer[], dialect: ScannerDialect): ScanResult {
  const scanner = new RecordScanner(dialect);
  const boundaries: number[] = [];
  const linesAt: number[] = [];
  let offset = 0;
  for (const piece of pieces) {
    scanner.feed(piece);
    for (let end = scanner.next(); end !== -1; end = scanner.next()) {
      boundaries.push(offset + end);
      linesAt.push(scanner.lines);
    }
    offset += piece.length;
  }
  return { boundaries, linesAt, lines: scanner.lines };
}

/** Cuts `input` into pieces starting at each of the given offsets. */
function cutAt(input: Buffer, cuts: readonly number[]): Buffer[] {
  const edges = [0, ...cuts, input.length];
  return edges.slice(1).map((end, i) => input.subarray(edges[i], end));
}

/**
 * Every way the stream may arrive that matters: whole, in two at every byte (so every quote, `""` pair,
 * CR/LF pair and multi-byte character is split somewhere), 1 byte at a time, 1 byte at a time with empty
 * buffers between, and a few seeded random splits into pieces of 1 to 8 bytes.
 */
function splittings(input: Buffer): Array<[string, Buffer[]]> {
  const result: Array<[string, Buffer[]]> = [['whole', [input]]];
  for (let i = 1; i < input.length; i++) result.push([`split at byte ${i}`, cutAt(input, [i])]);
  const bytes = [...input].map((byte) => Buffer.from([byte]));
  result.push(['1-byte pieces', bytes]);
  result.push(['1-byte pieces with empty buffers between', bytes.flatMap((b) => [b, Buffer.alloc(0)])]);
  const random = seededRandom(input.length);
  for (let n = 0; n < 5; n++) {
    const cuts: number[] = [];
    for (let at = 1 + Math.floor(random() * 8); at < input.length; at += 1 + Math.floor(random() * 8)) cuts.push(at);
    result.push([`random split #${n} at ${cuts.join(',')}`, cutAt(input, cuts)]);
  }
  return result;
}

const countLfs = (text: string): number => text.split('\n').length - 1;

/** The expected result, from the input written out by hand as whole records plus a tail with no boundary. */
function expectedFor(records: readonly string[], tail: string): ScanResult {
  const boundaries: number[] = [];
  const linesAt: number[] = [];
  let offset = 0;
  let lines = 0;
  for (const record of records) {
    offset += Buffer.byteLength(record, 'utf8');
    lines += countLfs(record);
    boundaries.push(offset);
    linesAt.push(lines);
  }
  return { boundaries, linesAt, lines: lines + countLfs(tail) };
}

const LONG_QUOTED = `"${'a long, quoted "" field\r\nover many lines\n'.repeat(12)}"`;

/** `records` are whole records, each ending where the scanner must return a boundary; `tail` has none. */
describe.each<{ name: string; dialect: ScannerDialect; records: string[]; tail?: string }>([
  // The plain case: each LF ends a record.
  { name: 'simple LF', dialect: CSV, records: ['id,name\n', '1,a\n', '2,b\n'] },
  // CRLF ends a record after the LF; the CR stays in the record for the parser.
  { name: 'CRLF', dialect: CSV, records: ['id,name\r\n', '1,a\r\n', '2,b\r\n'] },
  // A newline inside a quoted field is data, not a boundary.
  { name: 'quoted newline', dialect: CSV, records: ['1,"two\nlines",x\n', '2,"three\r\n\nlines"\n', '3,c\n'] },
  // `""` inside quotes is an escaped quote, not a close: the LFs between the pairs stay inside the field,
  // and splitting between the two quotes of a pair must not change that.
  { name: 'escaped quotes', dialect: CSV, records: ['1,"x""\n""y"\n', '2,"""",""""""\n', '3,"say ""hi""\n"\n'] },
  // A quote in the middle of an unquoted field is a literal; were it to open quotes, the LF after `d`
  // would be swallowed.
  { name: 'quote inside an unquoted field', dialect: CSV, records: ['ab"c,d\n', 'e"f,g\n', 'h,i\n'] },
  // A quote right after a delimiter or at the start of a record (first byte of the stream included) opens.
  { name: 'quote at the start of a field', dialect: CSV, records: ['"a\nb",1\n', 'x,"c\nd"\n', '"e",2\n'] },
  // The last record lacks its LF: it has no boundary (the chunk simply ends at the object's size).
  { name: 'no trailing newline', dialect: CSV, records: ['a,b\n'], tail: 'c,d' },
  // Nothing at all: no boundary, no line.
  { name: 'empty input', dialect: CSV, records: [] },
  // A header and nothing else is one record.
  { name: 'header only', dialect: CSV, records: ['id,name,count\n'] },
  // Blank lines are records of their own (the importer skips them).
  { name: 'blank lines', dialect: CSV, records: ['a\n', '\n', '\r\n', 'b\n'] },
  // Multi-byte UTF-8 split mid-character changes nothing (no byte of a multi-byte character is LF or ").
  { name: 'multi-byte UTF-8', dialect: CSV, records: ['é,東京\n', '"😀\n",é\n', '東,😀😀\n'] },
  // One quoted field far longer than most pieces, holding CRLFs, LFs, commas and escaped quotes.
  { name: 'one long quoted field', dialect: CSV, records: ['k,v\n', `1,${LONG_QUOTED}\n`, '2,z\n'] },
  // After a closing quote, trailing bytes (csv-parse rejects them) are unquoted: the LF still ends the record.
  { name: 'junk after a closing quote', dialect: CSV, records: ['q,"z"w\n', 'a,b\n'] },
  // A quote that never closes runs to the end: no boundary after it, but its LFs are still counted.
  { name: 'unterminated quote', dialect: CSV, records: ['a,b\n'], tail: 'c,"d\ne\n' },
  // With quoting off, `"` is data: it cannot hide a newline.
  { name: 'quoting disabled', dialect: TSV_NO_QUOTES, records: ['"a\t"b\n', 'c"\td\n', '"\n'] },
  // TSV: a quote after a tab opens; after a comma (not the delimiter here) it is a literal.
  { name: 'TSV delimiter', dialect: TSV, records: ['a\t"b\nc"\n', 'd,"e\tf\n', 'g\th\n'] },
])('RecordScanner: $name', ({ dialect, records, tail = '' }) => {
  const input = Buffer.from(records.join('') + tail, 'utf8');
  const expected = expectedFor(records, tail);

  it('finds the same boundaries and line counts however the input is split', () => {
    for (const [split, pieces] of splittings(input)) {
      expect({ split, ...scanPieces(pieces, dialect) }).toEqual({ split, ...expected });
    }
  });
});

describe('RecordScanner.next(atLeast)', () => {
  // Boundaries of this input: 2, 4, 6, 8, 10; every record is one line.
  const input = Buffer.from('a\nb\nc\nd\ne\n');

  it('returns the first boundary at or past atLeast and counts every LF before it', () => {
    const scanner = new RecordScanner(CSV);
    scanner.feed(input);
    expect(scanner.next(5)).toBe(6); // 2 and 4 are skipped: 6 is the first >= 5
    expect(scanner.lines).toBe(3); // the LFs at 1, 3 and 5
    expect(scanner.next(6)).toBe(8); // 6 is already consumed: the next boundary
    expect(scanner.lines).toBe(4);
    expect(scanner.next(8)).toBe(10); // a boundary exactly at atLeast counts
    expect(scanner.lines).toBe(5);
    expect(scanner.next()).toBe(-1);
  });

  it('returns -1 when atLeast is past the buffer, having counted all its LFs', () => {
    const scanner = new RecordScanner(CSV);
    scanner.feed(input);
    expect(scanner.next(100)).toBe(-1);
    expect(scanner.lines).toBe(5);
  });

  it('still tracks quotes in the records it skips', () => {
    // Boundaries: 2, 8, 14, 16. The quote at 2 opens because it follows the LF at 1 that next(3) skips
    // over; the quote at 10 opens after the comma and hides the LF at 11.
    const scanner = new RecordScanner(CSV);
    scanner.feed(Buffer.from('a\n"x\ny"\nz,"\n"\nw\n'));
    expect(scanner.next(3)).toBe(8); // not 5: the LF at 4 is inside quotes
    expect(scanner.lines).toBe(3);
    expect(scanner.next(9)).toBe(14); // not 12: the LF at 11 is inside quotes
    expect(scanner.lines).toBe(5);
    expect(scanner.insideQuotes).toBe(false);
  });

  it('takes atLeast relative to the current buffer', () => {
    const scanner = new RecordScanner(CSV);
    scanner.feed(Buffer.from('a\nb'));
    expect(scanner.next(1)).toBe(2);
    expect(scanner.next(1)).toBe(-1);
    scanner.feed(Buffer.from('\nc\nd\n')); // boundaries 1, 3, 5 of this buffer
    expect(scanner.next(2)).toBe(3);
    expect(scanner.lines).toBe(3);
  });
});

describe('scannerDialect', () => {
  it('turns the format strings into bytes, and an empty quote into no quoting', () => {
    expect(scannerDialect({ delimiter: ',', quote: '"' })).toEqual({ delimiter: 0x2c, quote: 0x22 });
    expect(scannerDialect({ delimiter: '\t', quote: "'" })).toEqual({ delimiter: 0x09, quote: 0x27 });
    expect(scannerDialect({ delimiter: '\t', quote: '' })).toEqual({ delimiter: 0x09, quote: undefined });
  });
});

describe.each<{ name: string; bytes: number[]; expected: number }>([
  // EF BB BF is the UTF-8 encoding of U+FEFF.
  { name: 'a BOM before data', bytes: [0xef, 0xbb, 0xbf, 0x61, 0x0a], expected: 3 },
  // A file holding only the BOM still has one.
  { name: 'a BOM alone', bytes: [0xef, 0xbb, 0xbf], expected: 3 },
  // Plain data has none.
  { name: 'no BOM', bytes: [0x61, 0x2c, 0x62, 0x0a], expected: 0 },
  // Two of the three bytes are not a BOM.
  { name: 'a truncated BOM', bytes: [0xef, 0xbb], expected: 0 },
  // A BOM that is not at the start does not count.
  { name: 'a BOM after the first byte', bytes: [0x61, 0xef, 0xbb, 0xbf], expected: 0 },
  { name: 'an empty buffer', bytes: [], expected: 0 },
])('bomLength: $name', ({ bytes, expected }) => {
  it(`is ${expected}`, () => {
    expect(bomLength(Buffer.from(bytes))).toBe(expected);
  });
});
