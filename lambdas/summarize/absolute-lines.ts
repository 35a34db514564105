import type { Chunk, ChunkResult } from '../contract/workflow-payloads.js';

const COMMA = 0x2c;
const LF = 0x0a;

/**
 * The absolute line of the first record of each chunk without `line` (a byte range that found its own first record):
 * the objects' data line (PlanningState.dataLine, where an object's first range starts), plus the LFs every chunk of
 * the object before it holds (ChunkResult.lines). Chunks of one object are consecutive in the list, in offset order.
 */
export function firstLines(
  chunks: readonly Chunk[],
  results: readonly ChunkResult[],
  dataLine = 1,
): Map<number, number> {
  const linesOf = new Map(results.map((r) => [r.chunk, r.lines ?? 0]));
  const first = new Map<number, number>();
  let line = dataLine;
  chunks.forEach((chunk, index) => {
    if (index > 0 && chunks[index - 1].object !== chunk.object) line = dataLine; // a new object starts
    line = chunk.line ?? line;
    if (chunk.line === undefined) first.set(index, line);
    line += linesOf.get(index) ?? 0;
  });
  return first;
}

/** The longest line field kept while waiting for its comma: a line number has at most 16 digits. */
const MAX_LINE_FIELD = 32;
const EMPTY = Buffer.alloc(0);

/**
 * Renumbers a rejects file (import/rejects.ts: `line,byte_offset,reason,record,object`, each text field quoted
 * with its quotes doubled) a piece at a time: `add` is added to every row's line, every other byte (the record's
 * may be invalid UTF-8) is copied as it is. A row's line is the digits before its first comma; the row ends with
 * `rowEnding` (contract/relative-rejects.ts: the object's field and the LF, the same in every row), found with one
 * search rather than by following each quote of the record. It holds only what may be the start of a line field or
 * of a row ending cut between two pieces, so memory does not grow with the file.
 */
export class LineRenumbering {
  private inHeader = true;
  /** The next byte starts a row (its line field). */
  private atRowStart = false;
  /** The end of the last piece, held back: part of a line field or of a row ending. */
  private carry: Buffer = EMPTY;

  constructor(
    private readonly add: number,
    private readonly rowEnding: Buffer,
  ) {}

  /** The renumbered bytes of `input` (what may be the start of a field or ending waits for the next piece). */
  push(input: Buffer): Buffer[] {
    const piece = this.carry.length ? Buffer.concat([this.carry, input]) : input;
    this.carry = EMPTY;
    const out: Buffer[] = [];
    let at = this.inHeader ? this.pastHeader(piece, out) : 0;
    while (at < piece.length) {
      if (this.atRowStart) {
        const comma = piece.indexOf(COMMA, at);
        if (comma === -1) return (this.hold(piece.subarray(at), MAX_LINE_FIELD), out);
        out.push(this.renumbered(piece.subarray(at, comma)));
        this.atRowStart = false;
        at = comma;
      }
      const ending = piece.indexOf(this.rowEnding, at);
      // No ending here: all but what could be the start of one goes out.
      const end =
        ending === -1 ? Math.max(at, piece.length - this.rowEnding.length + 1) : ending + this.rowEnding.length;
      out.push(piece.subarray(at, end));
      if (ending === -1) return (this.hold(piece.subarray(end), this.rowEnding.length), out);
      this.atRowStart = true;
      at = end;
    }
    return out;
  }

  /** Fails when the file ends inside a row (every row, the header's included, ends with an LF). */
  end(): void {
    if (this.inHeader || !this.atRowStart || this.carry.length > 0) {
      throw new Error('rejects file: the last row is not complete');
    }
  }

  /** Copies the header row; returns where the first row starts (the piece's end while the header goes on). */
  private pastHeader(piece: Buffer, out: Buffer[]): number {
    const lf = piece.indexOf(LF);
    const end = lf === -1 ? piece.length : lf + 1;
    out.push(piece.subarray(0, end));
    if (lf !== -1) [this.inHeader, this.atRowStart] = [false, true];
    return end;
  }

  private hold(bytes: Buffer, most: number): void {
    if (bytes.length > most) throw new Error('rejects file: a row without a line number');
    this.carry = bytes;
  }

  private renumbered(field: Buffer): Buffer {
    const text = field.toString('latin1');
    if (!/^\d+$/.test(text)) throw new Error(`rejects file: a line number expected, found "${text}"`);
    return Buffer.from(String(Number(text) + this.add));
  }
}

/** A whole rejects file renumbered (LineRenumbering), for files already in memory. */
export function renumberRejects(body: Buffer, add: number, rowEnding: Buffer): Buffer {
  const renumbering = new LineRenumbering(add, rowEnding);
  const parts = renumbering.push(body);
  renumbering.end();
  return Buffer.concat(parts);
}
