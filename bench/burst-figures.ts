import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
import { mapAtMost } from '../lambdas/async/map-at-most.js';
import { ImportLedger } from '../lambdas/admission/ledger.js';
import { createWiring } from '../lambdas/wiring/wiring.js';
import { ensureLedgerTable } from '../cli/local-run/local-stack.js';
import { startLocalWatch } from '../cli/watch/start-local-watch.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';

const FILES = 40;
const ROWS_PER_FILE = 500;
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

export interface BurstContext {
  readonly bucket: string;
  readonly s3: S3Client;
  readonly newTable: () => Promise<string>;
  readonly log: (line: string) => void;
}

/**
 * A burst of uploads under a watched prefix (`local watch`, as Spark or `aws s3 cp --recursive` writes part files)
 * against the same rows as one upload, in the same run: seconds from the first upload to the last import's end.
 * Issue 18 asks for the burst within 3x the one file.
 */
export async function burstFigure(ctx: BurstContext) {
  const header = 'ngram\tyear\tmatch_count\tvolume_count\n';
  const parts = Array.from({ length: FILES }, (_, i) => {
    const { text } = generateNgrams(ROWS_PER_FILE, { seed: 100 + i });
    return `${header}${text
      .slice(text.indexOf('\n') + 1)
      .replace(/^/gm, `f${i}-`)
      .replace(/f\d+-$/, '')}`;
  });
  const whole = `${header}${parts.map((p) => p.slice(header.length)).join('')}`;
  ctx.log(
    `burst: ${FILES} uploads of ${ROWS_PER_FILE} rows at once, then the same ${FILES * ROWS_PER_FILE} rows as one`,
  );
  const burstSeconds = await watchedUploads(
    ctx,
    parts.map((text, i) => ({ key: `part-${i}.tsv`, text })),
  );
  const oneFileSeconds = await watchedUploads(ctx, [{ key: 'whole.tsv', text: whole }]);
  return {
    files: FILES,
    rowsPerFile: ROWS_PER_FILE,
    burstSeconds: round(burstSeconds),
    oneFileSeconds: round(oneFileSeconds),
    burstToOneFile: round(burstSeconds / oneFileSeconds, 2),
  };
}

/** Seconds from the first upload under a fresh watched prefix to the end of the last import it started. */
async function watchedUploads(ctx: BurstContext, files: { key: string; text: string }[]): Promise<number> {
  const table = await ctx.newTable();
  const prefix = `burst-${Date.now()}/`;
  const base = createWiring();
  const wiring = { ...base, ledger: new ImportLedger(base.dynamodb, `bench-ledger-${Date.now()}`) };
  await ensureLedgerTable(wiring.dynamodb, wiring.ledger.tableName);
  let ended = 0;
  let allEnded = () => undefined as void;
  const done = new Promise<void>((resolve) => (allEnded = resolve));
  const watch = await startLocalWatch({
    watches: [{ prefix, table, types: { match_count: 'N', volume_count: 'N' } }],
    bucket: ctx.bucket,
    region: process.env.AWS_REGION ?? 'us-east-1',
    wiring,
    pollIntervalMs: 100,
    onEvent: (event) => {
      if (event.type === 'failed') throw event.error;
      if (event.type === 'done' && ++ended === files.length) allEnded();
    },
  });
  const started = performance.now();
  try {
    await mapAtMost(files, 16, (f) =>
      ctx.s3.send(new PutObjectCommand({ Bucket: ctx.bucket, Key: prefix + f.key, Body: f.text })),
    );
    await done;
    return (performance.now() - started) / 1000;
  } finally {
    await watch.stop();
  }
}
