/**
 * The construct's jsii surface: what Python, Java, .NET and Go apps see (`npm run build:jsii` compiles this file,
 * and what it imports, with jsii). A subset of lib/index.ts: the npm package keeps exporting the request and summary
 * types, whose unions and aliases jsii has no form for; here the string-literal unions inside the props read as
 * `string`, checked when the app synthesizes (a watch's request is validated then, naming the bad field).
 */
export { ImportPipeline } from '../lib/import-pipeline.js';
export type { ImportPipelineProps } from '../lib/import-pipeline-props.js';
export type { PipelineWatch, WatchedPrefix } from '../lib/watched-prefix.js';
export type { ImportSource } from '../lib/import-source.js';
export type { WatchStarter } from '../lib/watch-starter.js';
export { PipelineDashboard, type PipelineDashboardProps } from '../lib/pipeline-dashboard.js';
export type {
  CsvFormat,
  ImportOptions,
  ImportSettings,
  MirrorScope,
  RequestFormat,
} from '../lambdas/contract/import-request.js';
