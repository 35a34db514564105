import { describe, expect, it } from 'vitest';
import {
  FIELD_START,
  QUOTED,
  QUOTED_LF,
  RECORD_END,
  STATE_MASK,
  STATES,
  transitionTable,
} from '../../../lambdas/source/quote-dfa.js';
import { RecordScanner, scannerDialect, type ScannerDialect } from '../../../lambdas/source/record-scanner.js';
import { seededRandom } from '../../fixtures/random.js';

/** What the driver needs of a scanner: RecordScanner's public API. */
interface Scanner {
  lines: number;
  readonly insideQuotes: boolean;
  feed(buf: Buffer): void;
  next(atLeast?: number): number;
}

/**
 * The reference: the automaton walked one byte at a time with a plain loop, as the scanner's contract reads
 * (every LF counted; the first record end at or past `atLeast` returned).
 */
class ByteWalk implements Scanner {
  lines = 0;
  private readonly table: Uint8Array;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;

  constructor(
    dialect: ScannerDialect,
    private state: number,
  ) {
    this.table = transitionTable(dialect);
  }

  get insideQuotes(): boolean {
    return this.state >= QUOTED;
  }

  feed(buf: Buffer): void {
    this.buf = buf;
    this.pos = 0;
  }

  next(atLeast = 0): number {
    for (let i = this.pos; i < this.buf.length; i++) {
      const entry = this.table[(this.state << 8) | this.buf[i]];
      this.state = entry & STATE_MASK;
      if ((entry & (RECORD_END | QUOTED_LF)) !== 0) this.lines++;
      if ((entry & RECORD_END) !== 0 && i + 1 >= atLeast) {
        this.pos = i + 1;
        return i + 1;
      }
    }
    this.pos = this.buf.length;
    return -1;
  }
}

/**
 * Feeds `pieces` to `scanner` (its `lines` set first to a count it may have reached before), asking for ends
 * with `atLeast` values drawn from `seed` (half 0, the importer's way; half anywhere up to past the piece's end,
 * the planner's way), and logs every answer with `lines` and `insideQuotes` after it.
 */
function drive(scanner: Scanner, pieces: readonly Buffer[], seed: number): string[] {
  const random = seededRandom(seed);
  const log: string[] = [];
  // Past 2^32 LFs half the time: a long preflight's count must not wrap.
  scanner.lines = random() < 0.5 ? 0 : 2 ** 32 + 7;
  pieces.forEach((piece, p) => {
    scanner.feed(piece);
    for (;;) {
      const atLeast = random() < 0.5 ? 0 : Math.floor(random() * (piece.length + 16));
      const end = scanner.next(atLeast);
      log.push(`piece ${p} next(${atLeast}) = ${end} lines ${scanner.lines} quoted ${scanner.insideQuotes}`);
      if (end === -1) break;
    }
  });
  return log;
}

/** Random bytes drawn from `alphabet` (strings, so `""` and CRLF come as pairs), about `length` bytes. */
function draw(random: () => number, alphabet: readonly string[], length: number): Buffer {
  const parts: string[] = [];
  for (let size = 0; size < length; size += parts[parts.length - 1].length) {
    parts.push(alphabet[Math.floor(random() * alphabet.length)]);
  }
  return Buffer.from(parts.join(''));
}

/** Quote-dense records: quoted fields holding delimiters, LFs, CRLFs and doubled quotes, as real CSV writes them. */
function quoteDense(random: () => number, length: number, d: string, q: string): Buffer {
  const inner = ['ab', d, '\n', '\r\n', q + q, 'x', '東京'];
  const records: string[] = [];
  for (let size = 0; size < length; size += records[records.length - 1].length) {
    const fields = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      random() < 0.6 ? q + draw(random, inner, random() * 12).toString() + q : draw(random, ['a', '1', 'é'], 4),
    );
    records.push(fields.join(d) + (random() < 0.5 ? '\r\n' : '\n'));
  }
  return Buffer.from(records.join(''));
}

/** The inputs: each kind that takes a different path or a different corner of the block tables. */
const KINDS: Record<string, (random: () => number, length: number, d: string, q: string) => Buffer> = {
  'quote-dense': quoteDense,
  'quote-free': (random, length, d) => draw(random, ['abc', d, '\n', '\r\n', 'é'], length),
  // Quotes anywhere: mid-field (literal), after a closing quote, unclosed to the end, `""` at a field start.
  'stray quotes': (random, length, d, q) => draw(random, ['a', q, q, d, '\n', '\r', '\r\n'], length),
  // Many ends per eight-byte step, and more ends in one buffer than the end list starts with (4096).
  'runs of LFs': (random, length, d, q) =>
    draw(random, ['\n', '\n\n\n\n\n\n\n\n', d + '\n', q + '\n' + q + '\n', 'a\n'], length * 8),
};

const DIALECTS: Array<[string, ScannerDialect]> = [
  ['CSV', scannerDialect({ delimiter: ',', quote: '"' })],
  ['TSV with quotes', scannerDialect({ delimiter: '\t', quote: '"' })],
  ["semicolons and '", scannerDialect({ delimiter: ';', quote: "'" })],
  ['quoting off', scannerDialect({ delimiter: ',', quote: '' })],
];

/** Cuts `input` at random places into pieces that start at odd and even addresses (the block walk aligns words). */
function randomPieces(random: () => number, input: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  const cuts = random() < 0.2 ? 0 : Math.floor(random() * 6);
  let at = 0;
  for (let c = 0; c < cuts && at < input.length; c++) {
    const end = at + Math.floor(random() * (input.length - at + 1));
    pieces.push(input.subarray(at, end));
    at = end;
  }
  pieces.push(input.subarray(at));
  return pieces.map((piece) => {
    const skew = Math.floor(random() * 4);
    const copy = Buffer.alloc(piece.length + skew);
    piece.copy(copy, skew);
    return copy.subarray(skew);
  });
}

describe.each(DIALECTS)('RecordScanner against the byte-by-byte automaton (%s)', (_, dialect) => {
  const d = String.fromCharCode(dialect.delimiter);
  const q = dialect.quote === undefined ? '"' : String.fromCharCode(dialect.quote);

  it.each(Object.keys(KINDS))(
    'gives the same ends, lines and quote state on random %s inputs in random pieces',
    (kind) => {
      const random = seededRandom(kind.length * 7919 + dialect.delimiter);
      for (let round = 0; round < 150; round++) {
        const length = round % 25 === 0 ? 40_000 : Math.floor(random() * 600);
        const input = KINDS[kind](random, length, d, q);
        const pieces = randomPieces(random, input);
        // A lane may start the scanner in any state it learned (record-start.ts).
        const state = random() < 0.7 ? FIELD_START : Math.floor(random() * STATES);
        const seed = Math.floor(random() * 2 ** 32);
        const expected = drive(new ByteWalk(dialect, state), pieces, seed);
        const actual = drive(new RecordScanner(dialect, state), pieces, seed);
        expect(actual, `round ${round}: ${JSON.stringify(input.toString().slice(0, 2000))}`).toEqual(expected);
      }
    },
  );
});
