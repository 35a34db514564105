import type { MirrorPlan, MirrorPlanEvent, ScanSegmentEvent, SegmentProgress } from '../contract/mirror-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import { resolveLambdaConfig } from '../environment/config.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { mirrorPaceOptions } from '../mirror/mirror-pace.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { runMirrorPlan } from './mirror-plan.js';
import { runScanSegment } from './mirror-scan.js';
import { mirrorScanIo } from './mirror-scan-io.js';

/** The MirrorScan function's handler, as both of its Task states (MirrorPlan, MirrorScanSegment) call it. */
export interface MirrorScanFunctionHandler {
  (event: MirrorPlanEvent, context?: LambdaContextLike): Promise<MirrorPlan>;
  (event: ScanSegmentEvent, context: LambdaContextLike): Promise<SegmentProgress>;
}

/**
 * The MirrorScan function: MirrorPlan (pure sizing) and MirrorScanSegment (a Scan segment's keys into the key parts),
 * told apart by the segment event's `segment`. One function, since both need the same grants (the table's Scan,
 * writes under the rejects prefix) and the plan is too small to deserve its own.
 */
export function createMirrorScanHandler({ s3, dynamodb, ledger, config: input }: Wiring): MirrorScanFunctionHandler {
  const config = resolveLambdaConfig(input);
  const io = mirrorScanIo(dynamodb, s3, config.bucketKmsKeyArn ?? null, config.write.retry);
  const pacing = mirrorPaceOptions(ledger, config);
  return (async (event: MirrorPlanEvent | ScanSegmentEvent, context: LambdaContextLike) => {
    if (!('segment' in event)) return runMirrorPlan(event, (table) => io.describeTable(table));
    const outputPrefix = executionOutputPrefix(config.rejectsPrefix, event.job.executionName);
    const bucket = outputBucketOf(config, event.job.request.bucket);
    return runScanSegment(event, io, { outputPrefix, bucket, context, ...pacing });
  }) as MirrorScanFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createMirrorScanHandler);
