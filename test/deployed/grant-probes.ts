import { PutObjectCommand } from '@aws-sdk/client-s3';
import { gzipSync } from 'node:zlib';
import { DeleteItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { dynamodb, s3, stackOutputs } from './aws.js';
import { cloudCli } from './cli.js';
import { failedChildren, failedTaskCauses } from './executions.js';
import type { GrantRemoval } from './grant-removals.js';
import { ngramArgs, ngramFileWithBadRows } from './ngram-file.js';
import { putPartnerObject } from './partner-bucket.js';
import { PARTNER_BUCKET } from './tier-stack.js';

export const PROBE_TABLE = 'bad-rows';
const PLAIN = 'grants/plain/probe.tsv';
/**
 * Compressed beyond a 1 MiB chunk (at the expected 4x ratio, chunk-budget.ts): preflight stages it in plain pieces
 * (PutObject) and each chunk deletes its piece when done (DeleteObject).
 */
const STAGED = 'grants/staged/probe.tsv.gz';
const STAGED_ROWS = 40_000;
/**
 * A CSV whose one record holds a quoted field longer than the 16 MiB a lane looks back for the quote state
 * (MAX_LOOK_BACK_BYTES): its chunk fails for good with RecordTooLongError whatever the timing, so the Map Run fails
 * over its threshold and FindFailedChunk runs (the only probe that needs FindFailedChunk's grants).
 */
const FAILING = 'grants/failing/long-record.csv';
const FAILING_FIELD_BYTES = 16 * 1024 * 1024 + 1024;
/**
 * The first 200 good rows of PLAIN's 300, with no bad row (a rejected row stops a mirror before it scans): a sync
 * with mirror of it into the probe table, which PLAIN's probes filled, scans the table (MirrorScan) and deletes the
 * other 100 keys (MirrorParts), so each of their statements is needed.
 */
const MIRROR = 'grants/mirror/probe.tsv';
const MIRROR_FLAGS = ['--mode', 'sync', '--mirror', '--max-delete-percent', '100', '--allow-without-backup'];
/**
 * PLAIN's copy in the partner bucket (cdk.json's `sources`): the probe of each statement that names that bucket, a
 * key import (HeadObject, GetObject) or, for `s3:ListBucket`, an import of its folder (ListObjectsV2).
 */
const PARTNER_PLAIN = 'grants/partner/probe.tsv';
/** One chunk for the whole object: a single lane meets the long record from its start. */
const ONE_CHUNK = ['--chunk-mib', '64'];

/** A probe: which object, and what the request adds to a plain put. */
interface Probe {
  readonly key: string;
  readonly source?: 'prefix';
  readonly flags?: string[];
  /** The bucket it reads. @default - the stack's */
  readonly bucket?: string;
}

/** The probe that needs the statement, by `<function> <action>`; any other statement takes a plain import. */
const PROBES: Record<string, Probe> = {
  'Import dynamodb:PartiQLInsert': { key: PLAIN, flags: ['--mode', 'insert'] },
  'Preflight s3:ListBucket': { key: PLAIN, source: 'prefix' },
  'Preflight s3:PutObject': { key: STAGED },
  'Import s3:DeleteObject': { key: STAGED },
  'FailedChunk states:ListMapRuns': { key: FAILING, flags: ONE_CHUNK },
  'FailedChunk states:ListExecutions': { key: FAILING, flags: ONE_CHUNK },
  'FailedChunk states:DescribeExecution': { key: FAILING, flags: ONE_CHUNK },
  'MirrorScan s3:PutObject': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorScan dynamodb:Scan': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorParts s3:PutObject': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorParts s3:GetObject': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorParts s3:ListBucket': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorParts dynamodb:BatchWriteItem': { key: MIRROR, flags: MIRROR_FLAGS },
  // MirrorPlan's DescribeTable (parts from ItemCount), MirrorDropKeyParts' DeleteObjects, and the lanes' lease
  // renewals (the ledger's UpdateItem) of a Scan segment and a part's deletes.
  'MirrorScan dynamodb:DescribeTable': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorScan dynamodb:UpdateItem': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorParts s3:DeleteObject': { key: MIRROR, flags: MIRROR_FLAGS },
  'MirrorParts dynamodb:UpdateItem': { key: MIRROR, flags: MIRROR_FLAGS },
};

export function probeFor(removal: GrantRemoval): Probe {
  if (removal.resource.includes(`:s3:::${PARTNER_BUCKET}`)) {
    const list = removal.actions.includes('s3:ListBucket');
    return { key: PARTNER_PLAIN, bucket: PARTNER_BUCKET, ...(list ? { source: 'prefix' as const } : {}) };
  }
  const named = removal.actions.map((action) => PROBES[`${removal.fn} ${action}`]).find(Boolean);
  return named ?? { key: PLAIN };
}

/**
 * Puts the probes' objects: a small TSV with rejects (in the stack's bucket and the partner's), and a gzipped one big
 * enough to be staged.
 */
export async function putProbeObjects(): Promise<void> {
  const { BucketName: Bucket } = await stackOutputs();
  const plain = ngramFileWithBadRows(300, 9);
  await s3.send(new PutObjectCommand({ Bucket, Key: PLAIN, Body: plain.text }));
  await putPartnerObject(PARTNER_PLAIN, plain.text);
  const good = plain.items
    .slice(0, 200)
    .map((item) => [item.ngram.S, item.year.N, item.match_count.N, item.volume_count.N]);
  const mirror = ['ngram\tyear\tmatch_count\tvolume_count', ...good.map((fields) => fields.join('\t'))];
  await s3.send(new PutObjectCommand({ Bucket, Key: MIRROR, Body: `${mirror.join('\n')}\n` }));
  const staged = gzipSync(ngramFileWithBadRows(STAGED_ROWS, 10).text);
  await s3.send(new PutObjectCommand({ Bucket, Key: STAGED, Body: staged }));
  const long = `ngram,year,match_count,volume_count\n"${'x'.repeat(FAILING_FIELD_BYTES)}",1900,1,1\n`;
  await s3.send(new PutObjectCommand({ Bucket, Key: FAILING, Body: long }));
}

/**
 * Forgets every import the ledger holds lanes for: a probe whose release was denied leaves its lanes held until
 * their lease ends, and the next probe would queue behind them. Test setup only, with the root key.
 */
export async function clearLedger(): Promise<void> {
  const { LedgerTableName: TableName } = await stackOutputs();
  const { Items = [], Count } = await dynamodb.send(new ScanCommand({ TableName, ConsistentRead: true }));
  if (Count === undefined) throw new Error(`no answer from the ledger ${TableName}`);
  await Promise.all(Items.map((item) => dynamodb.send(new DeleteItemCommand({ TableName, Key: { pk: item.pk } }))));
}

/**
 * Runs the probe with `start --follow`: its exit code, and its stderr with the causes of failed chunks and of the
 * execution's failed Tasks (FindFailedChunk's denial is caught: the execution then fails under the Map's own error,
 * and the denial stays in the Task's TaskFailed event).
 */
export async function runProbe(probe: Probe, name: string): Promise<{ code: number; text: string }> {
  const bucket = probe.bucket ?? (await stackOutputs()).BucketName;
  const source = `s3://${bucket}/${probe.source === 'prefix' ? probe.key.replace(/[^/]+$/, '') : probe.key}`;
  const args = [source, ...ngramArgs(PROBE_TABLE), '--chunk-mib', '1', ...(probe.flags ?? []), '--name', name];
  const follow = await cloudCli(['start', ...args, '--follow', '--poll-s', '1']);
  const arn = /^started (\S+)$/m.exec(follow.stderr)?.[1];
  const children = arn ? await failedChildren(arn) : [];
  const tasks = arn ? await failedTaskCauses(arn) : [];
  return { code: follow.code, text: [follow.stderr, ...children.map((c) => c.cause), ...tasks].join('\n') };
}
