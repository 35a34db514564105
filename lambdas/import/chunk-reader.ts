import type { Checkpoint } from '../contract/workflow-payloads.js';
import { decompressedFrom, type Damage, type DecompressedStream } from '../source/decompressed-reader.js';
import { readRange, type SendGetObject } from '../source/s3-range-reader.js';
import type { ChunkPlan } from '../chunk-layouts/chunk-plan.js';

/** How one chunk's bytes are read (ChunkPlan.source). */
export interface ChunkReader {
  /**
   * Streams the chunk's data [start, end), in the object's (decompressed) offsets. A decompressed source streams
   * from `start` to the end of its data whatever `end` says (ChunkPlan.readEnd `data-end`).
   */
  readonly read: (start: number, end: number) => AsyncIterable<Buffer>;
  /** Once read: where a compressed object's data ended in damage, or null. */
  damage(): Damage | null;
}

/**
 * The read path of a chunk's source: range GETs of the object (IfMatch: its ETag) or of its staged piece (offsets
 * shifted by the piece's start, no ETag), or the whole object decompressed from its start; `from.line` numbers the
 * line a damaged stream breaks off at.
 */
export function chunkReader(plan: ChunkPlan, from: Checkpoint, getObject: SendGetObject): ChunkReader {
  const { source, size, where } = plan;
  const chunkStart = plan.chunk.start;
  const none = () => null;
  switch (source.kind) {
    case 'ranges':
      return { read: (start, end) => readRange(getObject, source.object, start, end), damage: none };
    case 'staged-piece':
      return {
        read: (start, end) => readRange(getObject, source.piece, start - chunkStart, end - chunkStart),
        damage: none,
      };
    case 'decompressed': {
      let stream: DecompressedStream | null = null;
      const read = (start: number) =>
        (stream = decompressedFrom(
          readRange(getObject, source.object, 0, size),
          source.compression,
          { offset: start, line: from.line },
          where,
        ));
      return { read, damage: () => stream?.damage ?? null };
    }
  }
}
