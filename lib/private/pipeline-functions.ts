import { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ImportPipelineProps } from '../import-pipeline-props.js';
import { PipelineFunction } from '../pipeline-function.js';
import { TASK_HANDLER_FILES, type TaskStateName } from '../workflow-tasks.js';
import type { PipelineSettings } from './pipeline-settings.js';
import { DEFAULT_IMPORT_MEMORY_MB } from '../../lambdas/environment/settings.js';
import { pipelineEnvironment } from './pipeline-environment.js';

/** The workflow's Lambda functions. */
export interface PipelineFunctions {
  readonly preflight: PipelineFunction;
  readonly importer: PipelineFunction;
  readonly summarize: PipelineFunction;
  /** Names a failed import after its first failed chunk (the FindFailedChunk task). */
  readonly failedChunk: PipelineFunction;
  /** A mirror's plan and parallel Scan of the table's keys (MirrorPlan, MirrorScanSegment). */
  readonly mirrorScan: PipelineFunction;
  /** A mirror's compare, guard and deletes, part by part (MirrorComparePart, MirrorGuard, MirrorDeletePart). */
  readonly mirrorParts: PipelineFunction;
}

const DEFAULT_PREFLIGHT_MEMORY_MB = 1024;
/** Summarize only adds up small counts and writes one JSON report. */
const SUMMARIZE_MEMORY_MB = 256;
/**
 * Summarize rewrites the rejects of lanes that counted lines from their own first record, streamed
 * (lambdas/summarize/relative-rejects-io.ts): a wrong type in a multi-GB object makes GBs of them, minutes of work.
 * Lambda's most, which the Summarize state's TimeoutSeconds (960) already allows.
 */
const SUMMARIZE_TIMEOUT = Duration.minutes(15);
/** FindFailedChunk makes three Step Functions reads (a few pages at most). */
const FAILED_CHUNK_MEMORY_MB = 256;
const FAILED_CHUNK_TIMEOUT = Duration.minutes(1);
/** A mirror's part holds one part's file keys in a Set (lambdas/mirror/key-parts.ts PART_FILE_BYTES). */
const MIRROR_MEMORY_MB = 1024;
const TIMEOUTS: Partial<Record<TaskStateName, Duration>> = {
  Summarize: SUMMARIZE_TIMEOUT,
  FindFailedChunk: FAILED_CHUNK_TIMEOUT,
};

/** The reservations the props set: the import's lanes, and how many imports scan at once. */
const RESERVED: Partial<Record<TaskStateName, (settings: PipelineSettings) => number | undefined>> = {
  ImportChunk: (settings) => settings.reserved,
  Preflight: (settings) => settings.preflightReserved,
};

/** Creates the functions under their construct ids (public contract: `ImportFunction`, ...). */
export function createPipelineFunctions(
  scope: Construct,
  props: ImportPipelineProps,
  settings: PipelineSettings,
): PipelineFunctions {
  const fn = (id: string, task: TaskStateName, description: string, memorySize: number, more = {}) =>
    new PipelineFunction(scope, id, {
      entry: TASK_HANDLER_FILES[task],
      description,
      memorySize,
      timeout: TIMEOUTS[task] ?? settings.timeout,
      environment: { ...settings.environment, ...more },
      reservedConcurrentExecutions: RESERVED[task]?.(settings),
    });
  const importMemory = props.importMemorySize ?? DEFAULT_IMPORT_MEMORY_MB;
  const importer = fn('ImportFunction', 'ImportChunk', 'Imports one chunk of an object into DynamoDB', importMemory);
  const preflight = fn(
    'PreflightFunction',
    'Preflight',
    'Checks an import request and cuts the object into chunks',
    props.preflightMemorySize ?? DEFAULT_PREFLIGHT_MEMORY_MB,
    // Preflight refuses a Parquet row group too big for the import function's memory (IMPORT_MEMORY_MB), and fits the
    // lanes to the import function's reservation, known here, without asking the Lambda API (IMPORT_RESERVED_CONCURRENCY).
    pipelineEnvironment(scope, {
      importFunctionName: importer.functionName,
      importMemoryMb: importMemory,
      importReservedConcurrency: settings.reserved ?? null,
    }),
  );
  const summarize = fn('SummarizeFunction', 'Summarize', 'Totals an import and writes its report', SUMMARIZE_MEMORY_MB);
  const failedChunk = fn(
    'FailedChunkFunction',
    'FindFailedChunk',
    "Names a failed import after its first failed chunk's error",
    FAILED_CHUNK_MEMORY_MB,
  );
  const mirrorScan = fn('MirrorScanFunction', 'MirrorScan', "Scans a mirror's table keys into parts", MIRROR_MEMORY_MB);
  const mirrorParts = fn('MirrorPartsFunction', 'MirrorParts', 'Deletes the keys a mirror dropped', MIRROR_MEMORY_MB);
  return { preflight, importer, summarize, failedChunk, mirrorScan, mirrorParts };
}
