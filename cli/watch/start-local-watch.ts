import type { S3Client } from '@aws-sdk/client-s3';
import type { ImportRequest } from '../../lambdas/contract/import-request.js';
import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import type { Wiring } from '../../lambdas/wiring/wiring.js';
import { requestForEvent, type WatchedPrefix } from '../../lib/watch-input.js';
import { runLocalImport, type RunnerEvent } from '../local-run/runner.js';
import { pollNewObjects, type ListedObject } from './bucket-poller.js';
import { objectCreatedEvent } from './object-created-event.js';

/** What a watch reports, in order for each upload: `upload`, `progress`..., then `done` or `failed`. */
export type WatchEvent =
  | { readonly type: 'upload'; readonly key: string; readonly watch: WatchedPrefix; readonly request: ImportRequest }
  | { readonly type: 'progress'; readonly key: string; readonly event: RunnerEvent }
  | { readonly type: 'done'; readonly key: string; readonly summary: ImportSummary; readonly durationMs: number }
  | { readonly type: 'failed'; readonly key: string; readonly error: Error; readonly durationMs: number };

export interface LocalWatchOptions {
  readonly watches: readonly WatchedPrefix[];
  readonly bucket: string;
  /** The region the local events name (the services' region). */
  readonly region: string;
  /** The handlers' clients; its S3 client also lists the bucket. */
  readonly wiring: Wiring;
  /** The Map's MaxConcurrency and the Lambda timeout the handlers see. @default - the runner's */
  readonly maxConcurrency?: number;
  readonly timeoutMs?: number;
  /** @default bucket-poller.ts POLL_INTERVAL_MS */
  readonly pollIntervalMs?: number;
  readonly onEvent?: (event: WatchEvent) => void;
}

export interface LocalWatch {
  /** Stops watching; imports still running are left to finish (or to fail with the servers). */
  stop(): Promise<void>;
  /** Settles when watching ends: resolves after stop(), rejects if listing the bucket fails. */
  readonly closed: Promise<void>;
  /** Object keys of the imports started and not yet settled. */
  inFlight(): string[];
}

/**
 * `local watch`: for every object created in the bucket from now on (cli/watch/bucket-poller.ts), builds the
 * "Object Created" event S3 would send EventBridge, and for each watch whose rule would fire on it runs the
 * workflow with the request that rule's input transformer builds: lib/watch-input.ts, the code the deployed
 * rule is made from. One import per matching watch, as one execution per matching rule. Resolves once the
 * bucket's current objects are known (they are not imported).
 */
export async function startLocalWatch(options: LocalWatchOptions): Promise<LocalWatch> {
  const emit = options.onEvent ?? (() => undefined);
  const running = new Map<number, string>();
  let imports = 0;

  const start = (watch: WatchedPrefix, key: string, request: ImportRequest) => {
    const id = ++imports;
    const startedMs = Date.now();
    running.set(id, key);
    emit({ type: 'upload', key, watch, request });
    void runLocalImport(request, {
      wiring: options.wiring,
      maxConcurrency: options.maxConcurrency,
      timeoutMs: options.timeoutMs,
      onEvent: (event) => emit({ type: 'progress', key, event }),
    })
      .then(
        (summary) => emit({ type: 'done', key, summary, durationMs: Date.now() - startedMs }),
        (error: Error) => emit({ type: 'failed', key, error, durationMs: Date.now() - startedMs }),
      )
      .finally(() => running.delete(id));
  };
  const onObject = (object: ListedObject) => {
    const event = objectCreatedEvent(options.bucket, object, options.region);
    for (const watch of options.watches) {
      const request = requestForEvent(watch, options.bucket, event);
      if (request) start(watch, object.key, request as unknown as ImportRequest);
    }
  };

  const aborter = new AbortController();
  const s3: S3Client = options.wiring.s3;
  const { done } = await pollNewObjects({
    s3,
    bucket: options.bucket,
    prefixes: options.watches.map((w) => w.prefix),
    onObject,
    signal: aborter.signal,
    intervalMs: options.pollIntervalMs,
  });
  done.catch(() => aborter.abort());
  return {
    stop: async () => {
      aborter.abort();
      await done.catch(() => undefined);
    },
    closed: done,
    inFlight: () => [...running.values()],
  };
}
