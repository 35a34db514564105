import type { Checkpoint, KeyAttribute } from '../contract/workflow-payloads.js';
import type { Item, ItemSink } from '../write/item-sink.js';
import { KeyBuffer } from './key-buffer.js';
import { canonicalKey, mirrorParts, mirrorPaths, pad } from './key-parts.js';

/** Puts one object: the import's S3 write, bound by its caller. */
export type PutKeys = (key: string, body: string) => Promise<void>;

/** Where and how one chunk invocation of a mirror records the keys it wrote. */
export interface FileKeysTarget {
  /** The execution's output prefix (contract executionOutputPrefix). */
  readonly outputPrefix: string;
  readonly chunkIndex: number;
  /** Where the invocation started: names its objects, so a retried invocation overwrites its own. */
  readonly from: Checkpoint;
  readonly keys: readonly KeyAttribute[];
  /** PlanningState.dataBytes: the mirror's part count comes from it (key-parts.ts mirrorParts). */
  readonly dataBytes: number;
}

/** A sink that records every key it passes on, and stores the keys by part once the invocation is done. */
export interface FileKeyRecorder {
  readonly sink: ItemSink;
  /** Stores this invocation's keys, one object per non-empty part; returns how many keys it stored. */
  store(put: PutKeys): Promise<number>;
}

/**
 * Wraps a chunk's sink so every item's key is recorded for the mirror (each key the file holds, whatever the mode
 * wrote). A key recorded and then not written (the invocation stopped) only keeps its item from deletion: the chunk
 * writes it on its next invocation.
 *
 * @example
 * const recorder = recordFileKeys(sink, { outputPrefix, chunkIndex, from, keys, dataBytes });
 * // ... the importer adds items to recorder.sink ...
 * await recorder.store((key, body) => putObject(s3, bucket, key, body, 'text/plain'));
 */
export function recordFileKeys(sink: ItemSink, target: FileKeysTarget): FileKeyRecorder {
  const buffer = new KeyBuffer(mirrorParts(target.dataBytes));
  const recording: ItemSink = {
    add(item: Item, key: string) {
      const canonical = canonicalKey(item, target.keys);
      buffer.add(canonical, canonical);
      return sink.add(item, key);
    },
    flush: () => sink.flush(),
    get written() {
      return sink.written;
    },
  };
  const paths = mirrorPaths(target.outputPrefix);
  const name = `chunk-${pad(target.chunkIndex)}-${target.from.offset}-${target.from.line}.keys`;
  return {
    sink: recording,
    async store(put) {
      await Promise.all(buffer.bodies().map(({ part, body }) => put(`${paths.fileKeys(part)}${name}`, body)));
      return buffer.count;
    },
  };
}
