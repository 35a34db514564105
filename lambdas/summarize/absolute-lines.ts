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

/**
 * A rejects file (import/rejects.ts: `line,byte_offset,reason,record,object`, each text field quoted with its
 * quotes doubled) with `add` added to every row's line. Only the first field of each row changes; the record's
 * bytes are copied as they are (they may be invalid UTF-8).
 */
export function renumberRejects(body: Buffer, add: number): Buffer {
  const parts: Buffer[] = [];
  let at = body.indexOf(LF) + 1; // past the header row
  parts.push(body.subarray(0, at));
  while (at < body.length) {
    const comma = body.indexOf(COMMA, at);
    parts.push(Buffer.from(String(Number(body.subarray(at, comma).toString('latin1')) + add)));
    const end = rowEnd(body, body.indexOf(COMMA, comma + 1) + 1);
    parts.push(body.subarray(comma, end));
    at = end;
  }
  return Buffer.concat(parts);
}

/** The end (past its LF) of a row whose three quoted fields start at `at`. */
function rowEnd(body: Buffer, at: number): number {
  for (let field = 0; field < 3; field++) {
    if (body[at] !== QUOTE) throw new Error(`rejects file: a quoted field expected at byte ${at}`);
    at++;
    for (;;) {
      const quote = body.indexOf(QUOTE, at);
      if (quote === -1) throw new Error('rejects file: a quoted field is not closed');
      at = quote + 1;
      if (body[at] !== QUOTE) break;
      at++; // `""`: a quote inside the field
    }
    at++; // the comma after the field, or the row's LF
  }
  return at;
}
