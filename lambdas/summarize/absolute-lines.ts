import type { Chunk, ChunkResult } from '../contract/workflow-payloads.js';

const COMMA = 0x2c;
const LF = 0x0a;
const QUOTE = 0x22;

/**
 * The absolute line of the first record of each chunk without `line` (a lane that found its own first record):
 * the objects' data line (ScanState.dataLine, where an object's first range starts), plus the LFs every chunk of
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

/**
 * Renumbers a rejects file (import/rejects.ts: `line,byte_offset,reason,record,object`, each text field quoted
 * with its quotes doubled) a piece at a time: `add` is added to every row's line, every other byte (the record's
 * may be invalid UTF-8) is copied as it is. A row ends at the first LF after an even number of quotes (a doubled
 * quote counts twice); between a row's start and its first comma stand the line's digits. It holds only the
 * digits of a line field cut between two pieces, so memory does not grow with the file.
 */
export class LineRenumbering {
  private inHeader = true;
  /** The start of the current row's line field, while its comma is not yet seen; null inside the rest of the row. */
  private lineField: Buffer[] | null = null;
  /** 1 while the current row is inside quotes. */
  private quoted = 0;

  constructor(private readonly add: number) {}

  /** The renumbered bytes of `piece` (what follows the last complete field waits for the next piece). */
  push(piece: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    while (at < piece.length) {
      if (this.lineField) {
        const comma = piece.indexOf(COMMA, at);
        this.lineField.push(piece.subarray(at, comma === -1 ? piece.length : comma));
        if (comma === -1) return (this.checkLineField(), out);
        out.push(this.renumbered());
        at = comma;
      }
      const end = this.rowEnd(piece, at);
      out.push(piece.subarray(at, end === -1 ? piece.length : end));
      if (end === -1) return out;
      at = end;
      this.inHeader = false;
      this.lineField = [];
    }
    return out;
  }

  /** Fails when the file ends inside a row (every row, the header's included, ends with an LF). */
  end(): void {
    const inRow = this.inHeader || (this.lineField ? this.lineField.some((b) => b.length > 0) : true);
    if (inRow) throw new Error('rejects file: the last row is not complete');
  }

  private renumbered(): Buffer {
    const text = Buffer.concat(this.lineField!).toString('latin1');
    this.lineField = null;
    if (!/^\d+$/.test(text)) throw new Error(`rejects file: a line number expected, found "${text}"`);
    return Buffer.from(String(Number(text) + this.add));
  }

  private checkLineField(): void {
    const length = this.lineField!.reduce((sum, b) => sum + b.length, 0);
    if (length > MAX_LINE_FIELD) throw new Error('rejects file: a row without a line number');
  }

  /** The end (past its LF) of the row `at` is in, or -1 when it goes on past `piece`. */
  private rowEnd(piece: Buffer, at: number): number {
    for (;;) {
      const lf = piece.indexOf(LF, at);
      const stop = lf === -1 ? piece.length : lf;
      for (let q = piece.indexOf(QUOTE, at); q !== -1 && q < stop; q = piece.indexOf(QUOTE, q + 1)) this.quoted ^= 1;
      if (lf === -1) return -1;
      if (this.quoted === 0) return lf + 1;
      at = lf + 1;
    }
  }
}

/** A whole rejects file renumbered (LineRenumbering), for files already in memory. */
export function renumberRejects(body: Buffer, add: number): Buffer {
  const renumbering = new LineRenumbering(add);
  const parts = renumbering.push(body);
  renumbering.end();
  return Buffer.concat(parts);
}
