import { describe, expect, it } from 'vitest';
import { parseLocalCommand } from '../../../cli/commands/local.js';
import { parseStartCommand } from '../../../cli/commands/start.js';
import { buildRequest } from '../../../cli/flags/request-file.js';

describe('local --request', () => {
  it('reads the payload file and leaves the table to it', () => {
    const command = parseLocalCommand(['f.tsv', '--request', 'req.json', '--create-table', '--pk', 'id', '--json']);
    expect(command).toMatchObject({ file: 'f.tsv', requestFile: 'req.json', request: {}, json: true });
    expect(command.request).not.toHaveProperty('table');
    expect(command.createTable).toEqual({ partitionKey: { name: 'id', type: 'S' } });
  });

  it.each([
    '--table t',
    '--types a=N',
    '--delimiter ;',
    '--no-header',
    '--columns a',
    '--chunk-mib 1',
    '--max-write-rate 5',
    '--spread',
    '--warm-throughput 12000',
  ])('fails when %s comes with it: the payload is the request', (flag) => {
    expect(() => parseLocalCommand(['f.tsv', '--request', 'req.json', ...flag.split(' ')])).toThrow(
      `--${flag.split(' ')[0].slice(2)} cannot be combined with --request`,
    );
  });

  it('fails without --table or --request', () => {
    expect(() => parseLocalCommand(['f.tsv'])).toThrow('--table is required');
  });
});

describe("--warm-throughput N (the request's warmThroughput)", () => {
  it('becomes the request field for local and start, over a --request file', () => {
    expect(parseLocalCommand(['f.tsv', '--table', 't', '--warm-throughput', '12000']).request).toMatchObject({
      warmThroughput: 12_000,
    });
    const start = parseStartCommand(['s3://b/k.csv', '--table', 't', '--warm-throughput', '12000']);
    const request = buildRequest(start.request, { warmThroughput: 4_000 }, { bucket: 'b', key: 'k.csv' }).input;
    expect(request).toEqual({ bucket: 'b', key: 'k.csv', table: 't', warmThroughput: 12_000 });
  });

  it('leaves the request without the field when not given', () => {
    const start = parseStartCommand(['s3://b/k.csv', '--table', 't']);
    expect(buildRequest(start.request, {}, { bucket: 'b', key: 'k.csv' }).input).toEqual({
      bucket: 'b',
      key: 'k.csv',
      table: 't',
    });
  });

  it.each(['0', '1500.5', 'many'])('fails when it is %s: a whole number of write units/s above 0', (value) => {
    expect(() => parseLocalCommand(['f.tsv', '--table', 't', '--warm-throughput', value])).toThrow(
      `--warm-throughput: invalid value ${JSON.stringify(value)}`,
    );
  });
});

describe("--allow-without-backup (the request's allowWithoutBackup)", () => {
  it('becomes the request field for local and start', () => {
    expect(parseLocalCommand(['f.tsv', '--table', 't', '--allow-without-backup']).request).toMatchObject({
      allowWithoutBackup: true,
    });
    const start = parseStartCommand(['s3://b/k.csv', '--table', 't', '--allow-without-backup']);
    expect(buildRequest(start.request, {}, { bucket: 'b', key: 'k.csv' }).input).toEqual({
      bucket: 'b',
      key: 'k.csv',
      table: 't',
      allowWithoutBackup: true,
    });
  });

  it('leaves the request without the field when not given', () => {
    expect(parseLocalCommand(['f.tsv', '--table', 't']).request).not.toHaveProperty('allowWithoutBackup');
  });

  it('fails when it comes with --request: the payload says allowWithoutBackup', () => {
    expect(() => parseLocalCommand(['f.tsv', '--request', 'req.json', '--allow-without-backup'])).toThrow(
      '--allow-without-backup cannot be combined with --request',
    );
  });
});
