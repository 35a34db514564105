import { mapAtMost } from '../async/map-at-most.js';
import { HEADER_READS_AT_ONCE } from '../columns/object-headers.js';
import type { LayoutPlanner } from './layout-planner.js';
import { planParquetObject } from './parquet-chunks.js';
import { parquetNames, readObjectFooter } from './parquet-objects.js';

/**
 * The planner of Parquet's row groups: the names are the schema's columns, from every object's footer; an object is
 * cut into runs of whole row groups from its footer (parquet-chunks.ts).
 * @example
 * const { columns, starts } = await ROW_GROUP_PLANNER.readNames(request, planning, keys, io);
 */
export const ROW_GROUP_PLANNER: LayoutPlanner = {
  async readNames(request, planning, keys, io) {
    const { objects } = planning;
    const footers = await mapAtMost(objects, HEADER_READS_AT_ONCE, (object) => readObjectFooter(object, io));
    return { ...parquetNames(request, objects, footers, keys), starts: { footers } };
  },
  planObject: (params, object) =>
    planParquetObject(object, params.starts?.footers, params.planning.budget.chunkBytes, params),
};
