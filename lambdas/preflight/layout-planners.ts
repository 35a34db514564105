import type { ChunkLayout } from '../contract/format-traits.js';
import type { LayoutPlanner } from '../chunk-layouts/layout-planner.js';
import { RECORD_PLANNER } from '../chunk-layouts/record-layout.js';
import { ROW_GROUP_PLANNER } from '../chunk-layouts/row-group-layout.js';

/**
 * The planner of each chunk layout (contract/format-traits.ts), as import/chunk-importers.ts holds each layout's
 * importer: a new layout is its planner's file and a line here.
 * @example
 * const plan = await LAYOUT_PLANNERS[planning.format.traits.layout].planObject(params, object, null, []);
 */
export const LAYOUT_PLANNERS: Readonly<Record<ChunkLayout, LayoutPlanner>> = {
  records: RECORD_PLANNER,
  'row-groups': ROW_GROUP_PLANNER,
};
