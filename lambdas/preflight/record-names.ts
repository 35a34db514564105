import { checkComputedAttributes } from '../columns/attribute-check.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { LayoutPlanner, ObjectStarts, PlanIo } from '../chunk-layouts/layout-planner.js';
import type { Planning } from '../chunk-layouts/planning-inputs.js';

export type { ObjectStarts };

/** The columns records are read with, the line their data starts on, and what was read to know them. */
export interface RecordNames {
  readonly columns: string[];
  readonly dataLine: number;
  readonly starts: ObjectStarts;
}

/**
 * The columns records are read with, after `attributes` and `exclude` are checked against the names records hold,
 * as the format's layout's planner reads them: a Parquet schema's columns (from every footer), else the CSV
 * header or the JSON objects' first records. Every object's start is read before any write, a few at a time.
 */
export async function recordNames(
  request: ResolvedRequest,
  planning: Planning,
  planner: LayoutPlanner,
  keys: KeyAttribute[],
  io: Pick<PlanIo, 'readFrom'>,
): Promise<RecordNames> {
  const names = await planner.readNames(request, planning, keys, io);
  checkComputedAttributes(request, names.known, keys);
  return { columns: names.columns, dataLine: names.dataLine, starts: names.starts };
}
