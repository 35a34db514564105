import { RecordScanner, type ScannerDialect } from '../source/record-scanner.js';
import type { ReadFrom } from '../source/source-object.js';
import type { Checkpoint, Chunk } from '../contract/workflow-payloads.js';

/** A chunk's range within its object: the planner cuts one object; its caller names which. */
export type ByteRange = Omit<Chunk, 'object'>;

export interface PlanChunksParams {
  readonly dialect: ScannerDialect;
  /** Target chunk size: a chunk ends at the first record boundary at or past start + chunkBytes. */
  readonly chunkBytes: number;
  /** Object size in bytes: the end of the last chunk. */
  readonly size: number;
  /** Where to resume: a record boundary (the data start on the first call). */
  readonly from: Checkpoint;
  readonly read: ReadFrom;
  /** Asked after each buffer: true when the invocation should return a checkpoint now. */
  readonly shouldStop: () => boolean;
}

export interface PlanChunksResult {
  readonly chunks: ByteRange[];
  readonly checkpoint: Checkpoint;
  readonly complete: boolean;
}

/**
 * Cuts the object into record-aligned chunks from a checkpoint. Stops early when asked, but only after
 * cutting at least one chunk, so every invocation makes progress; the bytes scanned past the last cut
 * are scanned again by the next invocation (at most one chunk's worth).
 */
export async function planChunks(params: PlanChunksParams): Promise<PlanChunksResult> {
  const { dialect, chunkBytes, size, from, read, shouldStop } = params;
  const scanner = new RecordScanner(dialect);
  const chunks: ByteRange[] = [];
  let chunkStart = from.offset;
  let chunkLine = from.line;
  let bufferStart = from.offset;
  if (from.offset < size) {
    for await (const buf of read(from.offset)) {
      scanner.feed(buf);
      for (let end = scanner.next(chunkStart + chunkBytes - bufferStart); end !== -1;) {
        const chunkEnd = bufferStart + end;
        chunks.push({ start: chunkStart, end: chunkEnd, line: chunkLine });
        chunkStart = chunkEnd;
        chunkLine = from.line + scanner.lines;
        end = scanner.next(chunkStart + chunkBytes - bufferStart);
      }
      bufferStart += buf.length;
      if (chunks.length > 0 && bufferStart < size && shouldStop()) {
        return { chunks, checkpoint: { offset: chunkStart, line: chunkLine }, complete: false };
      }
    }
  }
  if (chunkStart < size) chunks.push({ start: chunkStart, end: size, line: chunkLine });
  return { chunks, checkpoint: { offset: size, line: from.line + scanner.lines }, complete: true };
}
