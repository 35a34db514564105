import type { S3Client } from '@aws-sdk/client-s3';
import type { ImportLedger } from '../admission/ledger.js';
import { putObject } from '../wiring/aws-io.js';
import { makeRejectsAbsolute, type RewriteTarget } from './relative-rejects-io.js';
import type { SummarizeIo } from './summarize.js';

/** The Summarize function's I/O: its S3 client, the ledger, and how the files it writes are stored. */
export function summarizeIo(s3: S3Client, ledger: Pick<ImportLedger, 'release'>, target: RewriteTarget): SummarizeIo {
  return {
    makeRejectsAbsolute: (event, folder) => makeRejectsAbsolute(s3, event, folder, target),
    putReport: (bucket, key, body) => putObject(s3, bucket, key, body, 'application/json', target.kmsKeyArn),
    releaseLanes: (executionName) => ledger.release(executionName),
  };
}
