import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  applyInputTransformer,
  matchesEventPattern,
  type EventPattern,
  type InputTransformer,
} from '../../lib/eventbridge-semantics.js';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';
import { checkWatchPrefix, checkWatchRequest, requestForEvent, type WatchedPrefix } from '../../lib/watch-input.js';
import { objectCreatedEvent } from '../../cli/watch/object-created-event.js';

/** AWS's sample "Object Created" event (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html). */
const SAMPLE = JSON.parse(readFileSync(new URL('../fixtures/events/s3-object-created.json', import.meta.url), 'utf8'));
const BUCKET = SAMPLE.detail.bucket.name as string;
/** The sample, uploaded under `key` (and `size` bytes): the rest stays as AWS printed it. */
const sampleAt = (key: string, size = SAMPLE.detail.object.size) => ({
  ...SAMPLE,
  detail: { ...SAMPLE.detail, object: { ...SAMPLE.detail.object, key, size } },
});

const WATCHES: WatchedPrefix[] = [
  // cdk.json's own watch.
  {
    prefix: 'imports/ngrams/',
    table: 'ngrams',
    format: { delimiter: '\t' },
    types: { year: 'N', match_count: 'N', volume_count: 'N' },
  },
  // Every field a watch can fix, quotes in a column name included.
  {
    prefix: 'imports/words/',
    table: 'words',
    format: { delimiter: ';', header: false, columns: ['id', 'say "hi"'], quote: '' },
    types: { id: 'S' },
    chunkMiB: 16,
    maxWriteRate: 500,
  },
  // Only the table.
  { prefix: 'drop/', table: 'words' },
  // Fields the request grew after the watch type was first written: the watch type derives from the request's.
  { prefix: 'lines/', table: 'words', format: { type: 'jsonl' }, spread: true },
];

/** The deployable stack on the sample's bucket, as `cdk deploy -c bucketName=... -c watches=...` builds it. */
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new S3DdbImportStack(app, 'Parity', {
  bucketName: BUCKET,
  tableNames: ['ngrams', 'words'],
  watches: WATCHES,
});
const rules = Object.values(Template.fromStack(stack).findResources('AWS::Events::Rule')).map(({ Properties }) => ({
  pattern: Properties.EventPattern as EventPattern,
  transformer: {
    inputPathsMap: Properties.Targets[0].InputTransformer.InputPathsMap,
    inputTemplate: Properties.Targets[0].InputTransformer.InputTemplate,
  } as InputTransformer,
}));

describe.each(WATCHES.map((watch, i) => [watch.prefix, watch, i] as const))(
  'the rule for %s, from the synthesized template',
  (prefix, watch, i) => {
    const { pattern, transformer } = rules[i];
    const event = sampleAt(`${prefix}2024/1gram.tsv`);

    it('builds from the sample event the request local watch builds from it', () => {
      const { request: deployed } = applyInputTransformer(transformer, event) as { request: unknown };
      const { prefix: _, ...fixed } = watch;
      expect(deployed).toEqual({ bucket: BUCKET, key: `${prefix}2024/1gram.tsv`, ...fixed });
      expect(requestForEvent(watch, BUCKET, event)).toEqual(deployed);
    });

    it("sends the starter the watch's id and the event's bucket, key and sequencer (the import's name)", () => {
      expect(applyInputTransformer(transformer, event)).toMatchObject({
        watch: String(i),
        event: { bucket: BUCKET, key: `${prefix}2024/1gram.tsv`, sequencer: SAMPLE.detail.object.sequencer },
      });
    });

    it('builds the same request from the event local watch makes of the same upload', () => {
      const { key, size, etag } = event.detail.object;
      const local = objectCreatedEvent(BUCKET, { key, size, etag, lastModified: new Date(SAMPLE.time) }, SAMPLE.region);
      expect(local).toMatchObject({
        'detail-type': 'Object Created',
        source: 'aws.s3',
        time: SAMPLE.time,
        resources: SAMPLE.resources,
      });
      expect(requestForEvent(watch, BUCKET, local)).toEqual(
        (applyInputTransformer(transformer, event) as { request: unknown }).request,
      );
    });

    it.each([
      ['the sample as uploaded under the prefix', `${prefix}x.csv`, 5, true],
      ['an upload elsewhere', `other/${prefix}x.csv`, 5, false],
      ['an empty object (a console "folder")', `${prefix}sub/`, 0, false],
    ])('fires on %s exactly when local watch does', (_name, key, size, fires) => {
      expect(matchesEventPattern(pattern, sampleAt(key, size))).toBe(fires);
      expect(requestForEvent(watch, BUCKET, sampleAt(key, size)) !== null).toBe(fires);
    });

    it('does not fire for another bucket', () => {
      const other = { ...event, detail: { ...event.detail, bucket: { name: 'another-bucket' } } };
      expect(matchesEventPattern(pattern, other)).toBe(false);
      expect(requestForEvent(watch, BUCKET, other)).toBeNull();
    });
  },
);

describe('the InputTemplate length EventBridge takes (8,192 characters)', () => {
  /** A watch whose request fixes `n` typed columns of 20-character names. */
  const wide = (n: number): WatchedPrefix => ({
    prefix: 'wide/',
    table: 'words',
    types: Object.fromEntries(Array.from({ length: n }, (_, c) => [`column_${String(c).padStart(12, '0')}`, 'N'])),
  });
  const build = (watch: WatchedPrefix) => () =>
    new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Wide', {
      tableNames: ['words'],
      watches: [watch],
    });

  it('fails at synth, naming the watch and the length, when a watch makes a longer one', () => {
    // 310 columns x 27 characters ('"column_000000000000":"N",') = 8,370 characters, over 8,192 with the rest.
    expect(build(wide(310))).toThrow(
      /^watch for prefix 'wide\/': its request makes an EventBridge InputTemplate of \d{4} characters, over the 8192/,
    );
  });

  it('synthesizes a watch whose template fits', () => {
    const template = Template.fromStack(build(wide(250))());
    const [rule] = Object.values(template.findResources('AWS::Events::Rule'));
    expect((rule.Properties.Targets[0].InputTransformer.InputTemplate as string).length).toBeLessThanOrEqual(8192);
  });
});

describe('watch checks shared by the construct and local watch', () => {
  it('fails when a prefix covers the rejects prefix', () => {
    expect(() => checkWatchPrefix({ prefix: 's3-ddb-import/', table: 't' }, 's3-ddb-import/rejects')).toThrow(
      "watch for prefix 's3-ddb-import/': overlaps the rejects prefix 's3-ddb-import/rejects/'",
    );
  });

  it('fails when the request validator would refuse every upload', () => {
    expect(() => checkWatchRequest({ prefix: 'in/', table: 't', types: { n: 'INT' as never } })).toThrow(
      'watch for prefix \'in/\': types.n: unknown type "INT"',
    );
  });
});
