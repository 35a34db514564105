import { describe, expect, it } from 'vitest';
import { createContainerLogger } from '../../../lambdas/observability/logger.js';
import { runSummarizeStep } from '../../../lambdas/summarize/summarize-steps.js';
import type { SummarizeIo } from '../../../lambdas/summarize/summarize.js';

/** A scripted io that records every call. */
function scriptedIo() {
  const calls: string[] = [];
  const io: SummarizeIo = {
    makeRejectsAbsolute: async () => void calls.push('rejects'),
    putReport: async (bucket, key) => void calls.push(`report ${bucket}/${key}`),
    releaseLanes: async (name) => void calls.push(`release ${name}`),
  };
  return { io, calls };
}

const options = { rejectsPrefix: 'rejects', bucketName: null, logger: createContainerLogger(), context: {} };

describe('runSummarizeStep: Summarize or ReleaseLanes, told apart by `releaseLanes`, with a scripted io', () => {
  it('ReleaseLanes gives the lanes back and writes no report', async () => {
    const { io, calls } = scriptedIo();
    expect(await runSummarizeStep({ releaseLanes: 'exec-9' }, io, options)).toEqual({ released: 'exec-9' });
    expect(calls).toEqual(['release exec-9']);
  });
});
