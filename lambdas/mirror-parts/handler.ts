import type {
  ComparedPart,
  DeleteProgress,
  DropKeyPartsEvent,
  DroppedKeyParts,
  MirrorGuardEvent,
  MirrorGuardResult,
  MirrorPartsEvent,
  PartEvent,
} from '../contract/mirror-payloads.js';
import { executionOutputPrefix } from '../contract/workflow-payloads.js';
import { resolveLambdaConfig } from '../environment/config.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { mirrorPaceOptions } from '../mirror/mirror-pace.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { runComparePart } from './compare-part.js';
import { runDeletePart } from './delete-part.js';
import { runDropKeyParts } from './drop-key-parts.js';
import { runMirrorGuard } from './mirror-guard.js';
import { mirrorPartsIo } from './mirror-parts-io.js';

/** The MirrorParts function's handler, as its Task states call it. */
export interface MirrorPartsFunctionHandler {
  (event: PartEvent & { step: 'compare' }, context?: LambdaContextLike): Promise<ComparedPart>;
  (event: PartEvent & { step: 'delete' }, context: LambdaContextLike): Promise<DeleteProgress>;
  (event: MirrorGuardEvent & { step: 'guard' }, context?: LambdaContextLike): Promise<MirrorGuardResult>;
  (event: DropKeyPartsEvent & { step: 'drop' }, context: LambdaContextLike): Promise<DroppedKeyParts>;
}

/**
 * The MirrorParts function: MirrorComparePart (a part's delete list), MirrorDropKeyParts (the key parts, once
 * compared), MirrorGuard (stop before the first delete) and MirrorDeletePart (the deletes), told apart by the `step` the workflow's Parameters set. One function: they work on
 * the same objects, and only it holds the table's BatchWriteItem grant among the mirror's functions.
 */
export function createMirrorPartsHandler({
  s3,
  writeTransport,
  ledger,
  config: input,
}: Wiring): MirrorPartsFunctionHandler {
  const config = resolveLambdaConfig(input);
  const pacing = mirrorPaceOptions(ledger, config);
  const io = mirrorPartsIo(s3, writeTransport, config.bucketKmsKeyArn ?? null);
  return (async (event: MirrorPartsEvent, context: LambdaContextLike) => {
    if (event.step === 'guard') return runMirrorGuard(event);
    const { executionName, request } = event.step === 'drop' ? event : event.job;
    const outputPrefix = executionOutputPrefix(config.rejectsPrefix, executionName);
    const bucket = outputBucketOf(config, request.bucket);
    if (event.step === 'drop') return runDropKeyParts(event, io, { outputPrefix, bucket, context });
    if (event.step === 'compare') return runComparePart(event, io, { outputPrefix, bucket });
    return runDeletePart(event, io, { outputPrefix, bucket, context, retry: config.write.retry, ...pacing });
  }) as MirrorPartsFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createMirrorPartsHandler);
