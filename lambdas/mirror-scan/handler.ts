import type { MirrorPlanEvent, ScanSegmentEvent } from '../contract/mirror-payloads.js';
import { resolveLambdaConfig } from '../environment/config.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { mirrorPaceOptions } from '../mirror/mirror-pace.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { mirrorScanIo } from './mirror-scan-io.js';
import { runMirrorScan, type MirrorScanFunctionHandler } from './mirror-scan-steps.js';

export type { MirrorScanFunctionHandler } from './mirror-scan-steps.js';

/**
 * The MirrorScan function (mirror-scan-steps.ts runs its two steps). One function, since both need the same grants
 * (the table's Scan, writes under the rejects prefix) and the plan is too small to deserve its own.
 */
export function createMirrorScanHandler({ s3, dynamodb, ledger, config: input }: Wiring): MirrorScanFunctionHandler {
  const config = resolveLambdaConfig(input);
  const io = mirrorScanIo(dynamodb, s3, config.bucketKmsKeyArn ?? null, config.write.retry);
  const settings = {
    rejectsPrefix: config.rejectsPrefix,
    bucketName: config.bucketName,
    pacing: mirrorPaceOptions(ledger, config),
  };
  return ((event: MirrorPlanEvent | ScanSegmentEvent, context: LambdaContextLike) =>
    runMirrorScan(event, io, { ...settings, context })) as MirrorScanFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createMirrorScanHandler);
