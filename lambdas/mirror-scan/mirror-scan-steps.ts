import type { MirrorPlan, MirrorPlanEvent, ScanSegmentEvent, SegmentProgress } from '../contract/mirror-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import type { MirrorPaceOptions } from '../mirror/mirror-pace.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import { runMirrorPlan } from './mirror-plan.js';
import { runScanSegment } from './mirror-scan.js';
import type { MirrorScanIo } from './mirror-scan-io.js';

/** The MirrorScan function's handler, as both of its Task states (MirrorPlan, MirrorScanSegment) call it. */
export interface MirrorScanFunctionHandler {
  (event: MirrorPlanEvent, context?: LambdaContextLike): Promise<MirrorPlan>;
  (event: ScanSegmentEvent, context: LambdaContextLike): Promise<SegmentProgress>;
}

/** What the MirrorScan steps run with besides their event and I/O: the handler's resolved settings. */
export interface MirrorScanStepOptions {
  /** The rejects prefix (environment/config.ts): each execution's key parts lie under it. */
  readonly rejectsPrefix: string;
  /** The stack's bucket, where the key parts go (request/deployment-scope.ts); null for the request's. */
  readonly bucketName: string | null;
  readonly pacing: MirrorPaceOptions;
  readonly context: LambdaContextLike;
}

/**
 * MirrorPlan (pure sizing from DescribeTable) or MirrorScanSegment (a Scan segment's keys into the key parts), told
 * apart by the segment event's `segment`.
 *
 * @example
 * await runMirrorScan({ job, segment: 2 }, mirrorScanIo(dynamodb, s3, null, retry), options);
 * // { next: null, scanned: 1234 } once the segment is done
 */
export function runMirrorScan(
  event: MirrorPlanEvent | ScanSegmentEvent,
  io: MirrorScanIo,
  { rejectsPrefix, bucketName, pacing, context }: MirrorScanStepOptions,
): Promise<MirrorPlan | SegmentProgress> {
  if (!('segment' in event)) return runMirrorPlan(event, (table) => io.describeTable(table));
  const outputPrefix = executionOutputPrefix(rejectsPrefix, event.job.executionName);
  const bucket = outputBucketOf({ bucketName }, event.job.request.bucket);
  return runScanSegment(event, io, { outputPrefix, bucket, context, ...pacing });
}
