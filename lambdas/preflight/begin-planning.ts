import { resolvePlanning, type Planning } from '../chunk-layouts/planning-inputs.js';
import { chunkLayoutOf } from '../contract/format-traits.js';
import type { LayoutPlanner } from '../chunk-layouts/layout-planner.js';
import type { SourceSet } from '../contract/workflow-payloads.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import { NOT_QUEUED } from './import-queue.js';
import { recordNames, type ObjectStarts } from './record-names.js';
import { findSources, type FoundSources, type SourceIo } from './source-resolution.js';
import { checkStateSize } from './state-size.js';
import { checkTableSafety, type TableSafetyIo } from '../table-checks/table-safety-check.js';
import { warmThroughputToSet, type TargetTable, type WarmThroughputIo } from './warm-throughput.js';
import type { FooterIo } from '../chunk-layouts/parquet-objects.js';
import type { PlanningState, PreflightEvent } from '../contract/workflow-payloads.js';
import { checkDeploymentScope, type DeploymentScope } from '../request/deployment-scope.js';
import { requestTarget } from '../request/request-target.js';
import { resolveImportRequest } from '../request/resolve-request.js';
import type { WriteModeTable } from '../write/write-modes.js';
import { traitsOf, type SourceFormatTable } from '../formats/record-formats.js';
import type { ChunkLayoutTable } from '../chunk-layouts/chunk-layouts.js';

/** The I/O of the first invocation: finding the objects, reading their starts, checking and pre-warming the table. */
export interface BeginIo extends SourceIo, FooterIo, WarmThroughputIo, TableSafetyIo {
  describeTable(table: string): Promise<TargetTable>;
}

/** The settings the first invocation reads (environment/config.ts resolves them). */
export interface BeginOptions extends DeploymentScope {
  /** The pipeline's own output, never imported from a prefix. */
  readonly rejectsPrefix: string;
  /** Where big compressed objects are staged (no trailing slash). */
  readonly stagingPrefix: string;
  /** May a request's warmThroughput raise the table's (LambdaConfig.warmThroughputAllowed)? */
  readonly warmThroughputAllowed: boolean;
  /** The write modes a request's `mode` may name (the wiring's: write/write-modes.ts). */
  readonly writeModes: WriteModeTable;
  /** The source formats a request's `format.type` may name, planned by (the wiring's: formats/record-formats.ts). */
  readonly formats: SourceFormatTable;
  /** The chunk layouts those formats name, each with its planner (the wiring's: chunk-layouts/chunk-layouts.ts). */
  readonly layouts: ChunkLayoutTable;
}

/** A planning invocation's inputs: the state so far, what it plans from, and the objects' starts it read already. */
export interface PlanningStep {
  readonly state: PlanningState;
  readonly planning: Planning;
  /** The planner of the format's layout, from the wiring's table of chunk layouts. */
  readonly planner: LayoutPlanner;
  /** What this invocation read of each object's start; null on later invocations (read again where needed). */
  readonly starts: ObjectStarts | null;
}

/**
 * What every planning invocation plans from, resolved once: the planning inputs and the planner of the format's
 * layout. A format whose layout the wiring lacks fails here as the request it is, before any write.
 */
export function resolveStep(
  request: ResolvedRequest,
  sources: SourceSet,
  staging: string,
  options: Pick<BeginOptions, 'formats' | 'layouts'>,
): Pick<PlanningStep, 'planning' | 'planner'> {
  const planning = resolvePlanning(request, sources, staging, options.formats);
  return { planning, planner: chunkLayoutOf(planning.format.traits, options.layouts).planner };
}

const NOTHING_FOUND: FoundSources = {
  sources: { folder: '', objects: [], staging: null, exportManifest: null },
  found: { formatKey: '' },
};

/**
 * The first invocation: finds the objects first, then resolves the request once with what they say, checks the
 * table (its key, its safety, a pre-warm) and reads every object's start (the columns), all before any write.
 */
export async function beginPlanning(event: PreflightEvent, io: BeginIo, options: BeginOptions): Promise<PlanningStep> {
  const target = requestTarget(event.input);
  // The deployment's grants first: S3 would answer a request for another bucket with a bare 403.
  if (target) checkDeploymentScope(target, options);
  const ownPrefixes = [options.rejectsPrefix, options.stagingPrefix];
  // Without a usable bucket, table and key or prefix there is nothing to find: the resolve names every problem.
  const { sources, found } = target ? await findSources(target, io, ownPrefixes) : NOTHING_FOUND;
  const choices = { modeNames: Object.keys(options.writeModes), formats: traitsOf(options.formats) };
  const request = resolveImportRequest(event.input, found, choices);
  // The safety check refuses an unprotected delete here, before any write or pre-warm (table-safety.ts).
  const [table, safety] = await Promise.all([
    io.describeTable(request.table),
    checkTableSafety(request, io, options.writeModes),
  ]);
  // Refuses a provisioned table, and a raise the deployment does not allow.
  const warmTo = warmThroughputToSet(request.table, request.warmThroughput, table, options.warmThroughputAllowed);
  const staging = `${options.stagingPrefix}/${event.executionName}`;
  const { planning, planner } = resolveStep(request, sources, staging, options);
  const names = await recordNames(request, planning, planner, table.keys, io);
  const state: PlanningState = {
    request,
    executionName: event.executionName,
    // Size of all the objects together (compressed sizes for compressed ones); the ETag of the first.
    object: { size: planning.objects.reduce((sum, o) => sum + o.size, 0), etag: planning.sources.objects[0].etag },
    sources: planning.sources,
    columns: names.columns,
    keys: table.keys,
    indexes: table.indexes,
    chunkBytes: planning.budget.chunkBytes,
    dataBytes: 0,
    dataLine: names.dataLine,
    chunks: [],
    checkpoint: { object: 0, offset: 0, line: 1 },
    scanComplete: false,
    queue: NOT_QUEUED,
    // 0 until admitted: the ledger grants lanes once every object is planned.
    lanes: { configured: event.maxConcurrency, granted: 0, reason: 'not yet admitted' },
    ...(safety ? { safety } : {}),
  };
  checkStateSize(state);
  // Once the request is known good, before the Map's first write (warm-throughput.ts).
  if (warmTo !== null) await io.raiseWarmThroughput(request.table, warmTo);
  return { state, planning, planner, starts: names.starts };
}
