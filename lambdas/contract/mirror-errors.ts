import { ImportError } from './errors.js';

/**
 * A mirror would delete more than `maxDeletePercent` of the items in scope: it fails before its first delete, and
 * nothing is deleted (lambdas/mirror-parts/mirror-guard.ts).
 */
export class MirrorDeleteLimitError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MirrorDeleteLimitError';
  }
}

/**
 * Some rows of the file were rejected, so their keys are unknown and a mirror cannot tell their items from dropped
 * ones: it fails before its first delete, and nothing is deleted.
 */
export class MirrorRejectedRowsError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MirrorRejectedRowsError';
  }
}
