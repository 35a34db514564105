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
import type { LambdaContextLike } from '../environment/lambda-context.js';
import type { MirrorPaceOptions } from '../mirror/mirror-pace.js';
import { outputBucketOf } from '../request/deployment-scope.js';
import type { RetryPolicy } from '../retry/backoff.js';
import { runComparePart } from './compare-part.js';
import { runDeletePart } from './delete-part.js';
import { runDropKeyParts } from './drop-key-parts.js';
import { runMirrorGuard } from './mirror-guard.js';
import type { MirrorPartsIo } from './mirror-parts-io.js';

/** The MirrorParts function's handler, as its Task states call it. */
export interface MirrorPartsFunctionHandler {
  (event: PartEvent & { step: 'compare' }, context?: LambdaContextLike): Promise<ComparedPart>;
  (event: PartEvent & { step: 'delete' }, context: LambdaContextLike): Promise<DeleteProgress>;
  (event: MirrorGuardEvent & { step: 'guard' }, context?: LambdaContextLike): Promise<MirrorGuardResult>;
  (event: DropKeyPartsEvent & { step: 'drop' }, context: LambdaContextLike): Promise<DroppedKeyParts>;
}

/** What the MirrorParts steps run with besides their event and I/O: the handler's resolved settings. */
export interface MirrorPartsOptions {
  /** The rejects prefix (environment/config.ts): each execution's outputs lie under it. */
  readonly rejectsPrefix: string;
  /** The stack's bucket, where the key parts and delete lists lie (request/deployment-scope.ts); null for the request's. */
  readonly bucketName: string | null;
  readonly retry: RetryPolicy;
  readonly pacing: MirrorPaceOptions;
  readonly context: LambdaContextLike;
}

/**
 * MirrorComparePart, MirrorDropKeyParts, MirrorGuard and MirrorDeletePart, told apart by the `step` the workflow's
 * Parameters set; each step finds its outputs under the execution's output prefix in the output bucket.
 *
 * @example
 * await runMirrorParts({ step: 'compare', job, part: 3 }, mirrorPartsIo(s3, writeCalls, null), options);
 */
export function runMirrorParts(
  event: MirrorPartsEvent,
  io: MirrorPartsIo,
  { rejectsPrefix, bucketName, retry, pacing, context }: MirrorPartsOptions,
): Promise<ComparedPart | DeleteProgress | MirrorGuardResult | DroppedKeyParts> {
  if (event.step === 'guard') return Promise.resolve(runMirrorGuard(event));
  const { executionName, request } = event.step === 'drop' ? event : event.job;
  const outputPrefix = executionOutputPrefix(rejectsPrefix, executionName);
  const bucket = outputBucketOf({ bucketName }, request.bucket);
  if (event.step === 'drop') return runDropKeyParts(event, io, { outputPrefix, bucket, context });
  if (event.step === 'compare') return runComparePart(event, io, { outputPrefix, bucket });
  return runDeletePart(event, io, { outputPrefix, bucket, context, retry, ...pacing });
}
