import { InvalidRequestError } from '../contract/errors.js';
import type { MirrorPlan, MirrorPlanEvent } from '../contract/mirror-payloads.js';
import { mirrorParts, mirrorPlanParts, mirrorSegments, type TableSize } from '../mirror/key-parts.js';

/** The table's size as DescribeTable tells it (MirrorScanIo.describeTable). */
export type DescribeTableSize = (table: string) => Promise<TableSize>;

/**
 * MirrorPlan: how many key parts and Scan segments the mirror uses, as the lists its Maps iterate. The file-side
 * parts are the chunks' (from the file's data bytes); the parts grow with the table's ItemCount so a part's keys stay
 * under PART_KEYS, and the segments with its TableSizeBytes (lambdas/mirror/key-parts.ts). A scope needs a partition
 * key that `begins_with` takes (S or B): checked first, where the table's key types are known, before any read.
 *
 * @example
 * await runMirrorPlan({ request, executionName, keys, dataBytes: 1_000 }, describe);
 * // { parts: 16, fileParts: 16, totalSegments: 4, segments: [0, 1, 2, 3], partList: [0, ..., 15] }
 */
export async function runMirrorPlan(event: MirrorPlanEvent, describe: DescribeTableSize): Promise<MirrorPlan> {
  const { request, keys, dataBytes } = event;
  const partition = keys.find((key) => key.role === 'HASH') ?? keys[0];
  if (request.scope && partition.type === 'N') {
    const why = `the partition key ${partition.name} is a number, and begins_with takes only S or B`;
    throw new InvalidRequestError([`scope.partitionKeyPrefix: ${why}`]);
  }
  const table = await describe(request.table);
  const fileParts = mirrorParts(dataBytes);
  const parts = mirrorPlanParts(fileParts, table);
  const totalSegments = mirrorSegments(dataBytes, table.sizeBytes);
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return { parts, fileParts, totalSegments, segments: range(totalSegments), partList: range(parts) };
}
