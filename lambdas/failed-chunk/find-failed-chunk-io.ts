import { SFNClient } from '@aws-sdk/client-sfn';
import { chunkErrorOf } from '../map-run/first-failed-chunk.js';
import type { TaskWiring } from '../wiring/wiring.js';
import type { FindFailedChunkIo } from './find-failed-chunk.js';

/** FindFailedChunk's I/O on a Step Functions client (its role may read this machine's Map Runs). */
export function findFailedChunkIo(sfn: SFNClient): FindFailedChunkIo {
  return { chunkErrorOf: (executionArn, error) => chunkErrorOf(sfn, executionArn, error) };
}

/** The deployed function's wiring: one client per container, from the SDK's configuration chain. */
export function findFailedChunkWiring(): Pick<TaskWiring, 'sfn'> {
  return { sfn: new SFNClient({}) };
}
