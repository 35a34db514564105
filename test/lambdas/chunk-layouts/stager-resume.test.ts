import { describe, expect, it } from 'vitest';
import { SLOW_SKIP_MS, failIfSkipTookTheInvocation } from '../../../lambdas/chunk-layouts/stager.js';

async function* data() {
  yield Buffer.from('a\n');
  yield Buffer.from('b\n');
}

async function drain(stream: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  for await (const buf of stream) text += buf.toString();
  return text;
}

/** A clock that advances by `step` ms each time it is read. */
const ticking = (step: number) => {
  let now = 0;
  return () => (now += step);
};

describe('failIfSkipTookTheInvocation (resuming a staged object)', () => {
  it('fails by name when skipping to the checkpoint took a minute and brought the deadline', async () => {
    const stream = failIfSkipTookTheInvocation(data(), 123, () => true, 's3://b/huge.gz', ticking(SLOW_SKIP_MS));
    await expect(drain(stream)).rejects.toMatchObject({
      name: 'SourceTooLargeError',
      message: expect.stringContaining('s3://b/huge.gz: decompressing it again up to byte 123, where staging stopped'),
    });
  });

  it.each([
    ['the deadline came after a short skip (a short invocation)', () => true, 10],
    ['a long skip left time to stage', () => false, SLOW_SKIP_MS],
  ])('passes the data on when %s', async (_, shouldStop, step) => {
    expect(await drain(failIfSkipTookTheInvocation(data(), 0, shouldStop, 'x', ticking(step)))).toBe('a\nb\n');
  });
});
