/**
 * The package's entry (`import { ImportPipeline } from 's3-ddb-import'`): the construct, its props and the types
 * a user's code names. What is exported here is public contract and changes only as CHANGELOG.md and the README's
 * "Versioning" say (semver); everything else under lib/ and lambdas/ is internal.
 */
export { ImportPipeline, UNRESERVED_IMPORTS_WARNING } from './import-pipeline.js';
export type { ImportSource } from './import-source.js';
export { CROSS_ACCOUNT_SOURCE_NOTE } from './import-source.js';
export type { ImportPipelineProps } from './import-pipeline-props.js';
export type { PipelineWatch, WatchedPrefix } from './watched-prefix.js';
export { PipelineDashboard, type PipelineDashboardProps } from './pipeline-dashboard.js';
/** The execution input (StartExecution, a watch's rule, the CLI) and its parts. */
export type {
  ColumnType,
  Compression,
  CsvFormat,
  FormatType,
  ImportOptions,
  ImportRequest,
  ImportSettings,
  MirrorScope,
  RequestFormat,
  WriteMode,
} from '../lambdas/contract/import-request.js';
/** The execution output: what the console shows and the CLI prints. */
export type { ImportCounts, ImportSummary } from '../lambdas/contract/workflow-payloads.js';
