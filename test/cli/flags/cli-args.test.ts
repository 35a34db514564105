import { describe, expect, it } from 'vitest';
import { parseLocalCommand } from '../../../cli/flags/cli-args.js';

describe('local --request', () => {
  it('reads the payload file and leaves the table to it', () => {
    expect(
      parseLocalCommand(['f.tsv', '--request', 'req.json', '--create-table', '--pk', 'id', '--json']),
    ).toMatchObject({ file: 'f.tsv', requestFile: 'req.json', table: '', createTable: true, json: true });
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
  ])('fails when %s comes with it: the payload is the request', (flag) => {
    expect(() => parseLocalCommand(['f.tsv', '--request', 'req.json', ...flag.split(' ')])).toThrow(
      `--${flag.split(' ')[0].slice(2)} cannot be combined with --request`,
    );
  });

  it('fails without --table or --request', () => {
    expect(() => parseLocalCommand(['f.tsv'])).toThrow('--table is required');
  });
});
