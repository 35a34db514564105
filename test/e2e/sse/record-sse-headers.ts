import type { S3Client } from '@aws-sdk/client-s3';

/** The name the recorder is added under, and removed by. */
export const SSE_RECORDER = 'sse-recorder';

/** The server-side-encryption headers S3 reads on a PUT (x-amz-server-side-encryption, ...-aws-kms-key-id, ...). */
const SSE_HEADER = /^x-amz-server-side-encryption/i;

/** One request as the real client serialized it: its command, key, method and every SSE header it carried. */
export interface RecordedRequest {
  readonly command: string;
  readonly key: string;
  readonly method: string;
  readonly sse: Record<string, string>;
}

interface SerializedRequest {
  method: string;
  headers: Record<string, string>;
}
type Next = (args: { input: { Key?: string }; request?: unknown }) => Promise<unknown>;

/**
 * Records every request `s3` sends, at the `build` step: after the command is serialized into its HTTP request
 * (so the headers are exactly those the SDK built from the command's input), before it is signed and sent. The
 * record, not the engine, proves which requests carry SSE headers: the engine accepts them where S3 refuses them
 * (on a GET of an SSE-KMS object), and accepts a key that does not exist.
 */
export function recordSseHeaders(s3: S3Client): RecordedRequest[] {
  const recorded: RecordedRequest[] = [];
  const middleware = (next: Next, context: { commandName?: string }) => async (args: Parameters<Next>[0]) => {
    const request = args.request as SerializedRequest;
    const sse = Object.fromEntries(Object.entries(request.headers).filter(([name]) => SSE_HEADER.test(name)));
    recorded.push({ command: context.commandName ?? '', key: args.input.Key ?? '', method: request.method, sse });
    return next(args);
  };
  s3.middlewareStack.add(middleware as never, { step: 'build', name: SSE_RECORDER, priority: 'low' } as never);
  return recorded;
}

/** Takes the recorder off `s3`. */
export function stopRecordingSse(s3: S3Client): void {
  s3.middlewareStack.remove(SSE_RECORDER);
}
