import { describe, expect, it } from 'vitest';
import { createBucket, createTable, getText, listKeys, putText, runImport, scanAll } from './harness.js';

/** Bad rows are reported with line, byte offset and reason; good rows around them still land. */
describe('rejected rows', () => {
  it('keeps good rows, writes each bad row to the rejects file with where and why', async () => {
    const lines = [
      'ngram\tyear\tmatch_count', // line 1, header
      'good\t2001\t10', // line 2
      'badnum\t2002\t12abc', // line 3: not a number
      'short\t2003', // line 4: a field missing
      '\t2004\t5', // line 5: empty key
      'textyear\tnineteen\t7', // line 6: key typed N by the table holds text
      'good\t2005\t11', // line 7
    ];
    const text = `${lines.join('\n')}\n`;
    const bucket = await createBucket();
    await putText(bucket, 'in/bad.tsv', text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary } = await runImport(
      { bucket, key: 'in/bad.tsv', table, types: { match_count: 'N' } },
      { executionName: 'run-1' },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 6, written: 2, rejected: 4 });
    expect(summary.rejectsKey).toBe('s3-ddb-import/rejects/run-1/');
    const items = await scanAll(table);
    expect(items.map((i) => i.year.N).sort()).toEqual(['2001', '2005']);

    const keys = await listKeys(bucket, summary.rejectsKey!);
    const chunkStart = Buffer.byteLength(`${lines[0]}\n`);
    expect(keys).toEqual([`s3-ddb-import/rejects/run-1/${chunkStart}.csv`, 's3-ddb-import/rejects/run-1/report.json']);
    const offsetOf = (line: number) =>
      Buffer.byteLength(
        lines
          .slice(0, line - 1)
          .map((l) => `${l}\n`)
          .join(''),
      );
    expect((await getText(bucket, keys[0])).split('\n')).toEqual([
      'line,byte_offset,reason,record,object',
      `3,${offsetOf(3)},"column ""match_count"": not a number: ""12abc""","badnum\t2002\t12abc","in/bad.tsv"`,
      `4,${offsetOf(4)},"expected 3 fields, got 2","short\t2003","in/bad.tsv"`,
      `5,${offsetOf(5)},"key attribute ""ngram"" is empty","\t2004\t5","in/bad.tsv"`,
      `6,${offsetOf(6)},"column ""year"": not a number: ""nineteen""","textyear\tnineteen\t7","in/bad.tsv"`,
      '',
    ]);
    const report = JSON.parse(await getText(bucket, keys[1]));
    expect(report).toMatchObject({ rows: 6, written: 2, rejected: 4, executionName: 'run-1' });
  });
});
