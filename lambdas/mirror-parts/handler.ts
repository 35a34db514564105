import { resolveLambdaConfig } from '../environment/config.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import type { MirrorPartsEvent } from '../contract/mirror-payloads.js';
import { mirrorPaceOptions } from '../mirror/mirror-pace.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { mirrorPartsIo } from './mirror-parts-io.js';
import { runMirrorParts, type MirrorPartsFunctionHandler } from './mirror-parts-steps.js';

export type { MirrorPartsFunctionHandler } from './mirror-parts-steps.js';

/**
 * The MirrorParts function (mirror-parts-steps.ts runs its four steps). One function: the steps work on the same
 * objects, and only it holds the table's BatchWriteItem grant among the mirror's functions.
 */
export function createMirrorPartsHandler({
  s3,
  writeTransport,
  ledger,
  config: input,
}: Wiring): MirrorPartsFunctionHandler {
  const config = resolveLambdaConfig(input);
  const io = mirrorPartsIo(s3, writeTransport, config.bucketKmsKeyArn ?? null);
  const { rejectsPrefix, bucketName } = config;
  const settings = { rejectsPrefix, bucketName, retry: config.write.retry, pacing: mirrorPaceOptions(ledger, config) };
  return ((event: MirrorPartsEvent, context: LambdaContextLike) =>
    runMirrorParts(event, io, { ...settings, context })) as MirrorPartsFunctionHandler;
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createMirrorPartsHandler);
