/**
 * One base class for every error the pipeline raises on purpose. Each subclass sets `name`, which is
 * also the `Error` that a Step Functions `Retry`/`Catch` matches, so names are public contract.
 */
export class ImportError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ImportError';
  }
}

/** The request is wrong: fails before any work starts, naming the field and the problem. */
export class InvalidRequestError extends ImportError {
  constructor(
    readonly problems: string[],
    options?: ErrorOptions,
  ) {
    super(`invalid request: ${problems.join('; ')}`, options);
    this.name = 'InvalidRequestError';
  }
}

/** The S3 object named by the request does not exist (or cannot be read). */
export class SourceObjectNotFoundError extends ImportError {
  constructor(bucket: string, key: string, options?: ErrorOptions) {
    super(`source object s3://${bucket}/${key} does not exist`, options);
    this.name = 'SourceObjectNotFoundError';
  }
}

/**
 * S3 answered 403 to the source object's HeadObject: the object may exist, but this role may not read it. A HEAD's 403
 * has no body, so the SDK can only call it an UnknownError; this names what to grant instead.
 */
export class SourceObjectAccessDeniedError extends ImportError {
  constructor(bucket: string, key: string, options?: ErrorOptions) {
    super(
      `source object s3://${bucket}/${key} cannot be read (403 Forbidden): the function's role needs s3:GetObject on ` +
        'it (and kms:Decrypt on its KMS key when the bucket uses SSE-KMS); a bucket policy may also deny it',
      options,
    );
    this.name = 'SourceObjectAccessDeniedError';
  }
}

/** The DynamoDB table named by the request does not exist. */
export class TableNotFoundError extends ImportError {
  constructor(table: string, options?: ErrorOptions) {
    super(`table ${JSON.stringify(table)} does not exist`, options);
    this.name = 'TableNotFoundError';
  }
}

/** The object's ETag changed after preflight: it was replaced mid-import, so nothing mixes two versions. */
export class SourceObjectChangedError extends ImportError {
  constructor(bucket: string, key: string, etag: string, options?: ErrorOptions) {
    super(`source object s3://${bucket}/${key} changed during the import (expected ETag ${etag})`, options);
    this.name = 'SourceObjectChangedError';
  }
}

/** A read of the object failed in a way worth retrying from the last checkpoint (Step Functions retries it). */
export class TransientReadError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TransientReadError';
  }
}

/** BatchWriteItem kept failing (throttles, unprocessed items or errors) past the retry budget. */
export class BatchWriteFailedError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BatchWriteFailedError';
  }
}

/** A prefix (or an export's manifest) names no object to import: fails before any write. */
export class NoSourceObjectsError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NoSourceObjectsError';
  }
}

/** An object is compressed in a way this runtime cannot decompress (zstd before Node.js 22.15). */
export class UnsupportedCompressionError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnsupportedCompressionError';
  }
}

/** A compressed object is truncated or corrupt: names the object and where its good data ends. */
export class CorruptSourceError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CorruptSourceError';
  }
}

/** A compressed object too big to stage within an import's limits (chunk count, checkpoint loop): fails before any write. */
export class SourceTooLargeError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SourceTooLargeError';
  }
}

/**
 * A write of the modes sent as PartiQL statements (`insert`, `update`) failed for good: a BatchExecuteStatement, one
 * of its statements, or the single-item request of an item that cannot be a statement; not retryable, or out of
 * retries.
 */
export class StatementWriteFailedError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StatementWriteFailedError';
  }
}

/**
 * `sync`'s read of the items already in the table (a BatchGetItem of up to 100 keys) failed for good: not retryable,
 * or out of retries. Nothing of its batch was written.
 */
export class BatchReadFailedError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BatchReadFailedError';
  }
}

/**
 * A `delete` import into a table whose point-in-time recovery is off: refused before any write, since nothing could
 * restore what it deletes, unless the request says `"allowWithoutBackup": true`.
 */
export class BackupRequiredError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BackupRequiredError';
  }
}

/**
 * A record of a plain quoted-CSV object holds a quote and is longer than a lane looks back to learn the quote state
 * at its start (source/record-start.ts, MAX_LOOK_BACK_BYTES): a lane that started inside it may have read its bytes
 * as records, so the import stops by name. Such a record could never be one item (400 KB).
 */
export class RecordTooLongError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RecordTooLongError';
  }
}

/**
 * The ledger's one counters item stayed busy: every transaction that would give an import's lanes back was cancelled
 * (TransactionConflict with other admissions and releases, or a throttle), past the ledger's own attempts. A
 * conflict on one item is expected under load
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html), so the workflow's
 * Summarize and ReleaseLanes retry this by name; the release is idempotent, so a retry changes nothing twice.
 */
export class LedgerBusyError extends ImportError {
  constructor(execution: string, options?: ErrorOptions) {
    super(`the ledger stayed busy: the lanes of ${execution} are still held`, options);
    this.name = 'LedgerBusyError';
  }
}

/**
 * A running lane found its import's lanes given back to the ledger (the execution failed or was stopped, and
 * ReleaseLanes or the next admission took them): it stops at its next record boundary instead of writing on. An
 * invocation keeps running when its execution stops (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StopExecution.html
 * stops the execution, not a Lambda invocation it started), so without this it could write for up to 15 minutes
 * beside the next import admitted onto the same lanes.
 */
export class LaneLeaseLostError extends ImportError {
  constructor(execution: string, at: { readonly offset: number; readonly line?: number }, options?: ErrorOptions) {
    const line = at.line === undefined ? '' : `, line ${at.line}`;
    super(
      `the lanes of ${execution} were given back while this lane ran: it stopped at offset ${at.offset}${line} ` +
        '(every earlier record written); rerun the import to finish it',
      options,
    );
    this.name = 'LaneLeaseLostError';
  }
}

/**
 * S3 answered 301 PermanentRedirect: the bucket is in another Region than the function's S3 client. The functions read
 * in their own Region only (lib/import-source.ts says why); the message names the bucket's Region, from the
 * `x-amz-bucket-region` header S3 sends with it (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html).
 */
export class SourceBucketRegionError extends ImportError {
  constructor(bucket: string, region: string | undefined, here: string | undefined, options?: ErrorOptions) {
    super(
      `bucket ${bucket} is in ${region ?? 'another Region'}, not in ${here ?? "this function's Region"} where the ` +
        'import runs (S3 answered 301 PermanentRedirect): replicate the objects into a bucket of this Region, or ' +
        'deploy the pipeline in the bucket Region',
      options,
    );
    this.name = 'SourceBucketRegionError';
  }
}

/**
 * A chunk rejected more rows than the request's reject budget allows (`maxRejects`; without it, its first 1,000
 * rows were all rejected): the import is going nowhere, so it stops instead of reading the whole object. What was
 * written stays written; the rejects file holds every rejected row with its reason.
 */
export class TooManyRejectsError extends ImportError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TooManyRejectsError';
  }
}
