import { setTimeout as sleep } from 'node:timers/promises';
import { createProgressRenderer } from '../../progress/renderer.js';
import type { Output } from '../../output/summary.js';
import type { CloudClients } from '../aws/clients.js';
import { lookAtExecution, newFollowMemory } from './execution-snapshot.js';
import { finishExecution } from './finish.js';

/** Seconds between polls: each costs ~5 control-plane reads, far under Step Functions' and CloudWatch's rates. */
export const DEFAULT_POLL_SECONDS = 5;

export interface FollowOptions {
  readonly json: boolean;
  /** @default DEFAULT_POLL_SECONDS */
  readonly pollSeconds?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/**
 * Polls the execution until it ends, drawing each look with the progress renderer (a bar on a terminal,
 * plain lines otherwise), then prints the end as `local` does and returns its exit code.
 */
export async function followExecution(
  clients: CloudClients,
  executionArn: string,
  output: Output,
  options: FollowOptions,
): Promise<number> {
  const now = options.now ?? Date.now;
  const renderer = createProgressRenderer({ ...output, now });
  const memory = newFollowMemory();
  for (;;) {
    const look = await lookAtExecution(clients, executionArn, memory, now());
    if (!look.snapshot) {
      renderer.done();
      return finishExecution(clients, look.described, options.json, output);
    }
    renderer.render(look.snapshot);
    await sleep((options.pollSeconds ?? DEFAULT_POLL_SECONDS) * 1000);
  }
}
