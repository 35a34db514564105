import { describe, expect, it } from 'vitest';
import type { ResolvedRequest } from '../../../lambdas/contract/import-request.js';
import { runMirrorGuard } from '../../../lambdas/mirror-parts/mirror-guard.js';

const request = { mirror: true, maxDeletePercent: 10, dryRun: false } as unknown as ResolvedRequest;
/** In scope 1,000 over two segments; `notInFile` over two parts; the chunks rejected `rejected` rows. */
const event = (notInFile: [number, number], rejected = 0, over: Partial<ResolvedRequest> = {}) => ({
  request: { ...request, ...over },
  mirror: {
    scanned: [
      [0, 600],
      [1, 400],
    ],
    compared: [
      { part: 0, notInFile: notInFile[0] },
      { part: 1, notInFile: notInFile[1] },
    ],
  },
  chunkResults: [[0, 10, 10, rejected, 0, 0, 0, 0, 0, 0]], // CHUNK_RESULT_FIELDS, sync's counts last
});

describe('MirrorGuard: decides before the first delete', () => {
  it('lets 100 of 1,000 (10%, at the limit) go', () => {
    expect(runMirrorGuard(event([60, 40]))).toEqual({ inScope: 1000, notInFile: 100, percent: 10, refusal: null });
  });

  it('fails when 101 of 1,000 (10.1%) would go, naming the count: MirrorDeleteLimitError', () => {
    expect(() => runMirrorGuard(event([61, 40]))).toThrow(
      expect.objectContaining({
        name: 'MirrorDeleteLimitError',
        message: expect.stringContaining('mirror would delete 101 of the 1000 items in scope (10.1%)'),
      }),
    );
  });

  it('fails when rows were rejected and anything would go: MirrorRejectedRowsError', () => {
    expect(() => runMirrorGuard(event([1, 0], 2))).toThrow(
      expect.objectContaining({ name: 'MirrorRejectedRowsError' }),
    );
  });

  it('lets rejected rows pass when nothing would be deleted', () => {
    expect(runMirrorGuard(event([0, 0], 2)).refusal).toBeNull();
  });

  it('does not stop a dry run: it reports the refusal instead', () => {
    const result = runMirrorGuard(event([300, 0], 0, { dryRun: true }));
    expect(result).toMatchObject({ notInFile: 300, percent: 30 });
    expect(result.refusal).toContain('over maxDeletePercent 10');
  });
});
