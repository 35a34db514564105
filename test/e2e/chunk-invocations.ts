import { expect } from 'vitest';
import type { Checkpoint, Chunk } from '../../lambdas/contract/workflow-payloads.js';
import type { RunnerEvent } from '../../cli/local-run/runner.js';

/** One ImportChunk invocation, as the runner reported its start and its return. */
export interface ChunkInvocation {
  readonly from: Checkpoint;
  /** Where it stopped, null when it finished the chunk; undefined when it never returned (timed out). */
  readonly next?: Checkpoint | null;
  /** The chunk's rows counted up to `next`, over this and the earlier invocations. */
  readonly rows?: number;
}

/** Each chunk's ImportChunk invocations in the order they ran (a chunk's invocations never overlap). */
export function chunkInvocations(events: readonly RunnerEvent[]): Map<number, ChunkInvocation[]> {
  const byChunk = new Map<number, ChunkInvocation[]>();
  for (const e of events) {
    if (e.type === 'preflight' || e.type === 'mirror') continue;
    const list = byChunk.get(e.chunkIndex) ?? byChunk.set(e.chunkIndex, []).get(e.chunkIndex)!;
    if (e.type === 'chunk-start') list.push({ from: e.from! });
    else list.push({ ...list.pop()!, next: e.next, rows: e.rows });
  }
  return byChunk;
}

/** Where a file's records start (`boundaries`), and which of those starts hold a row (blank records do not). */
export interface RecordLayout {
  readonly bytes: Buffer;
  readonly boundaries: readonly number[];
  readonly rowStarts: readonly number[];
}

/** The layout of a file of one record per line (TSV without quotes, JSON Lines), past its header if it has one. */
export function lineLayout(text: string | Buffer, options: { header: boolean }): RecordLayout {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const starts = [0];
  for (let at = bytes.indexOf(0x0a); at !== -1 && at + 1 < bytes.length; at = bytes.indexOf(0x0a, at + 1)) {
    starts.push(at + 1);
  }
  const boundaries = options.header ? starts.slice(1) : starts;
  const isBlank = (start: number) => bytes[start] === 0x0a || (bytes[start] === 0x0d && bytes[start + 1] === 0x0a);
  return { bytes, boundaries, rowStarts: boundaries.filter((start) => !isBlank(start)) };
}

const countBelow = (sorted: readonly number[], limit: number) => sorted.filter((offset) => offset < limit).length;
/** The physical line an offset is on: 1 + the line feeds before it. */
const lineAt = (bytes: Buffer, offset: number) => 1 + countBelow(lineFeeds(bytes), offset);
const feeds = new WeakMap<Buffer, number[]>();
function lineFeeds(bytes: Buffer): number[] {
  if (!feeds.has(bytes)) {
    const at: number[] = [];
    for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) at.push(i);
    feeds.set(bytes, at);
  }
  return feeds.get(bytes)!;
}

/**
 * Asserts the resume contract of every chunk of a one-object import: its first invocation starts at the chunk's
 * start; each later one where the one before stopped (or, after one that timed out, where that one started);
 * every stop is a record start past where the invocation began, with its physical line; and the rows counted
 * at each stop are exactly the rows between the chunk's first record and that stop, so none was skipped or
 * counted twice. A chunk without `line` owns the records from the first record start at or after its start, and
 * counts its lines from 1 there. The last invocation finishes the chunk. Returns how many invocations each
 * chunk took, by index.
 */
export function expectChunksResumed(events: readonly RunnerEvent[], chunks: readonly Chunk[], file: RecordLayout) {
  const boundaries = new Set(file.boundaries);
  const byChunk = chunkInvocations(events);
  return chunks.map((chunk, index) => {
    const invocations = byChunk.get(index) ?? [];
    const owned = chunk.line === undefined ? firstAtOrAfter(file, chunk.start) : chunk.start;
    const lineBase = chunk.line === undefined ? lineAt(file.bytes, owned) - 1 : 0;
    expect(invocations[0]?.from, `chunk ${index} starts at its start`).toEqual({
      offset: chunk.start,
      line: chunk.line ?? 1,
    });
    invocations.forEach((invocation, i) => {
      const { from, next } = invocation;
      if (i > 0)
        expect(from, `chunk ${index}, invocation ${i}`).toEqual(invocations[i - 1].next ?? invocations[i - 1].from);
      if (!next) return;
      const where = `chunk ${index} stopped at ${next.offset}`;
      expect(
        boundaries.has(next.offset) && next.offset > Math.max(from.offset, owned - 1),
        `${where}: a record start past ${from.offset}`,
      ).toBe(true);
      expect(next.line, where).toBe(lineAt(file.bytes, next.offset) - lineBase);
      expect(invocation.rows, where).toBe(countBelow(file.rowStarts, next.offset) - countBelow(file.rowStarts, owned));
    });
    expect(invocations.at(-1)?.next, `chunk ${index} finished`).toBeNull();
    return invocations.length;
  });
}

/** The first record start at or after `offset` (the file's size when none is). */
function firstAtOrAfter(file: RecordLayout, offset: number): number {
  return file.boundaries.find((b) => b >= offset) ?? file.bytes.length;
}
