import type { Checkpoint, Chunk, PlanningCheckpoint } from '../contract/workflow-payloads.js';
import type { PlanObjectsParams } from '../chunk-layouts/layout-planner.js';

export type { PlanIo, PlanObjectsParams } from '../chunk-layouts/layout-planner.js';

export interface PlanObjectsResult {
  readonly chunks: Chunk[];
  readonly checkpoint: PlanningCheckpoint;
  readonly complete: boolean;
}

/**
 * Cuts the import's objects into chunks, in key order, from a checkpoint: a plain object into byte ranges from its
 * size, a Parquet object into runs of row groups from its footer, a compressed one into one whole chunk or, when
 * staged, into staged plain pieces. Stops when asked once it has made some progress, and says where to resume.
 */
export async function planObjects(params: PlanObjectsParams): Promise<PlanObjectsResult> {
  const { planning, from, shouldStop } = params;
  const { objects } = planning;
  const chunks: Chunk[] = [];
  let last: Checkpoint = from;
  for (let index = from.object; index < objects.length; index++) {
    const resume = index === from.object && from.offset > 0 ? from : null;
    const result = await params.planner.planObject(params, objects[index], resume, [...params.earlier, ...chunks]);
    chunks.push(...result.ranges.map((range) => ({ object: index, ...range })));
    if (result.next) return { chunks, checkpoint: { object: index, ...result.next }, complete: false };
    last = result.end;
    const more = index + 1 < objects.length;
    if (more && chunks.length > 0 && shouldStop()) {
      return { chunks, checkpoint: { object: index + 1, offset: 0, line: 1 }, complete: false };
    }
  }
  return { chunks, checkpoint: { object: objects.length - 1, ...last }, complete: true };
}
