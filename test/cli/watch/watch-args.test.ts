import { describe, expect, it } from 'vitest';
import { parseWatchCommand } from '../../../cli/commands/local-watch.js';

describe.each([
  // No flags: the watches come from ./cdk.json, into the local bucket.
  [[], { cdkJson: 'cdk.json', bucket: 's3-ddb-import-local', concurrency: 40, timeoutSeconds: 900, json: false }],
  // One watch from flags, with every field a watch can fix, as cdk.json would hold it.
  [
    [
      '--prefix',
      'in/',
      '--table',
      't',
      '--delimiter',
      'tab',
      '--no-header',
      '--columns',
      'a,b',
      '--types',
      'b=N',
      '--chunk-mib',
      '8',
      '--max-write-rate',
      '100',
    ],
    {
      watch: {
        prefix: 'in/',
        table: 't',
        format: { delimiter: '\t', header: false, columns: ['a', 'b'] },
        types: { b: 'N' },
        chunkMiB: 8,
        maxWriteRate: 100,
      },
    },
  ],
  // A watch of only prefix and table has no other field (the request's defaults apply, as in the cloud).
  [['--prefix', 'in/', '--table', 't'], { watch: { prefix: 'in/', table: 't' } }],
  // Local-only flags.
  [
    [
      '--cdk-json',
      'other.json',
      '--create-table',
      '--pk',
      'id',
      '--sk',
      'n:N',
      '--bucket',
      'b',
      '--concurrency',
      '4',
      '--timeout-s',
      '30',
      '--json',
    ],
    {
      cdkJson: 'other.json',
      bucket: 'b',
      createTable: { partitionKey: { name: 'id', type: 'S' }, sortKey: { name: 'n', type: 'N' } },
      concurrency: 4,
      timeoutSeconds: 30,
      json: true,
    },
  ],
])('parseWatchCommand(%j)', (args, expected) => {
  it('reads it', () => expect(parseWatchCommand(args)).toMatchObject(expected));
});

describe.each([
  ['a file is given', ['x.tsv'], 'local watch takes no file'],
  ['--prefix comes without --table', ['--prefix', 'in/'], '--prefix and --table go together'],
  [
    'a format flag comes without a watch',
    ['--types', 'a=N'],
    '--types describes a watch: give --prefix and --table too',
  ],
  [
    '--cdk-json comes with a flag watch',
    ['--prefix', 'in/', '--table', 't', '--cdk-json', 'c.json'],
    '--cdk-json reads the watches from a file',
  ],
  ['--create-table has no key', ['--create-table'], '--create-table needs --pk'],
  ['a type is unknown', ['--prefix', 'in/', '--table', 't', '--types', 'a=INT'], '--types: expected col=S|N|BOOL|JSON'],
])('parseWatchCommand fails when %s', (_name, args, message) => {
  it('names the problem', () => expect(() => parseWatchCommand(args)).toThrow(message));
});
