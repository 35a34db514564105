import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { cancellationCodes } from '../../../lambdas/admission/ledger-pool.js';

const cancelled = (message: string, reasons?: { Code: string }[]) =>
  new TransactionCanceledException({ message, $metadata: {}, ...(reasons ? { CancellationReasons: reasons } : {}) });

describe('cancellationCodes (why DynamoDB cancelled a transaction, in the order of its items)', () => {
  it('reads CancellationReasons from the error', () => {
    const error = cancelled('Transaction cancelled', [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }]);
    expect(cancellationCodes(error)).toEqual(['None', 'ConditionalCheckFailed']);
  });

  it('reads the codes the message lists when the property is missing (API_TransactWriteItems.html: "Java only")', () => {
    const message =
      'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]';
    expect(cancellationCodes(cancelled(message))).toEqual(['TransactionConflict', 'None']);
  });

  it('says nothing of any other error', () => {
    expect(cancellationCodes(Object.assign(new Error('x'), { name: 'ValidationException' }))).toBeNull();
    expect(cancellationCodes(cancelled('Transaction cancelled'))).toBeNull();
  });
});
