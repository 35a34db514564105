import { Token } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { InvalidRequestError } from '../lambdas/runtime/errors.js';
import { resolveImportRequest, type ColumnType, type CsvFormat } from '../lambdas/request/import-request.js';

/** An S3 prefix whose new objects are imported into one table with a fixed format. */
export interface WatchedPrefix {
  /** Key prefix, e.g. 'imports/ngrams/'. It must not cover the rejects prefix. */
  readonly prefix: string;
  /** Name of the target table; it must be one of the pipeline's `tables`. */
  readonly table: string;
  /** @default - tab for *.tsv and *.tab keys, comma otherwise; header row; '"' quotes */
  readonly format?: CsvFormat;
  /** Column name to type. @default - every column is a string (S) */
  readonly types?: Record<string, ColumnType>;
  /** Target chunk size. @default - 64 MiB, grown for huge files */
  readonly chunkMiB?: number;
  /** Cap in items/s for the whole import; 0 = as fast as the table takes. @default 0 */
  readonly maxWriteRate?: number;
}

/**
 * Throws early when a watch cannot work: a table the pipeline may not write, a prefix that would also
 * fire on the pipeline's own rejects and reports (a loop), or a format/types the request validator
 * would reject on every upload.
 */
export function checkWatch(watch: WatchedPrefix, tableNames: readonly string[], rejectsPrefix: string, stagingPrefix?: string): void {
  const where = `watch for prefix '${watch.prefix}'`;
  const namesKnown = tableNames.every((name) => !Token.isUnresolved(name));
  if (namesKnown && !tableNames.includes(watch.table)) {
    throw new Error(`${where}: table '${watch.table}' is not among tables (${tableNames.join(', ')})`);
  }
  if (!Token.isUnresolved(watch.prefix)) {
    const rejects = `${rejectsPrefix}/`;
    if (rejects.startsWith(watch.prefix) || watch.prefix.startsWith(rejects)) {
      throw new Error(`${where}: overlaps the rejects prefix '${rejects}', so reports would trigger imports`);
    }
    const staging = stagingPrefix && `${stagingPrefix}/`;
    if (staging && (staging.startsWith(watch.prefix) || watch.prefix.startsWith(staging))) {
      throw new Error(`${where}: overlaps the staging prefix '${staging}', so staged pieces would trigger imports`);
    }
  }
  try {
    resolveImportRequest({ ...watchRequestFields(watch), bucket: 'bucket', key: `${watch.prefix}object` });
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new Error(`${where}: ${error.problems.join('; ')}`);
    throw error;
  }
}

/** The request fields a watch fixes; bucket and key come from the event. */
function watchRequestFields(watch: WatchedPrefix): Record<string, unknown> {
  const { table, format, types, chunkMiB, maxWriteRate } = watch;
  return Object.fromEntries(
    Object.entries({ table, format, types, chunkMiB, maxWriteRate }).filter(([, value]) => value !== undefined),
  );
}

/**
 * One EventBridge rule: an object created under the prefix starts an execution whose input an input
 * transformer builds (bucket and key from the event, the rest from the watch). Zero-byte objects, such
 * as the "folders" the console creates, are skipped.
 */
export function addWatchRule(
  scope: Construct,
  id: string,
  watch: WatchedPrefix,
  bucket: s3.IBucket,
  stateMachine: sfn.IStateMachine,
): events.Rule {
  const rule = new events.Rule(scope, id, {
    description: `Imports objects created under s3://${bucket.bucketName}/${watch.prefix} into ${watch.table}`,
    eventPattern: {
      source: ['aws.s3'],
      detailType: ['Object Created'],
      detail: {
        bucket: { name: [bucket.bucketName] },
        object: { key: [{ prefix: watch.prefix }], size: [{ numeric: ['>', 0] }] },
      },
    },
  });
  const input = events.RuleTargetInput.fromObject({
    bucket: events.EventField.fromPath('$.detail.bucket.name'),
    key: events.EventField.fromPath('$.detail.object.key'),
    ...watchRequestFields(watch),
  });
  rule.addTarget(new targets.SfnStateMachine(stateMachine, { input }));
  return rule;
}
