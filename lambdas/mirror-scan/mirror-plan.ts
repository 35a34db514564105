import { InvalidRequestError } from '../contract/errors.js';
import type { MirrorPlan, MirrorPlanEvent } from '../contract/mirror-payloads.js';
import { mirrorParts, mirrorSegments } from '../mirror/key-parts.js';

/**
 * MirrorPlan: how many key parts and Scan segments the mirror uses, as the lists its Maps iterate. Pure: sized from
 * the file's data bytes (the chunks recorded their keys by the same count). A scope needs a partition key that
 * `begins_with` takes (S or B): checked here, where the table's key types are known, before any read.
 *
 * @example
 * runMirrorPlan({ request, executionName, keys, dataBytes: 1_000 });
 * // { parts: 16, totalSegments: 4, segments: [0, 1, 2, 3], partList: [0, ..., 15] }
 */
export function runMirrorPlan(event: MirrorPlanEvent): MirrorPlan {
  const { request, keys, dataBytes } = event;
  const partition = keys.find((key) => key.role === 'HASH') ?? keys[0];
  if (request.scope && partition.type === 'N') {
    const why = `the partition key ${partition.name} is a number, and begins_with takes only S or B`;
    throw new InvalidRequestError([`scope.partitionKeyPrefix: ${why}`]);
  }
  const parts = mirrorParts(dataBytes);
  const totalSegments = mirrorSegments(dataBytes);
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return { parts, totalSegments, segments: range(totalSegments), partList: range(parts) };
}
