import { ImportPipeline, type ImportPipelineProps } from './import-pipeline.js';

export { ASL_PLACEHOLDERS } from './workflow-tasks.js';
export type { WatchedPrefix } from './watched-prefix.js';

/**
 * @deprecated Use `ImportPipelineProps` (lib/import-pipeline.ts): the same props under the construct's new name.
 */
export type CsvImportPipelineProps = ImportPipelineProps;

/**
 * @deprecated Use `ImportPipeline` (lib/import-pipeline.ts): the construct imports CSV/TSV, JSON Lines and
 * DynamoDB JSON, so it is named for all of them. This alias builds exactly the same resources, under the same ids.
 */
export class CsvImportPipeline extends ImportPipeline {}
