import { describe, expect, it } from 'vitest';
import { detectFormat, namesFormat } from '../../../lambdas/request/detect-format.js';

describe.each([
  // CSV and TSV, plain and compressed; a tab for .tsv and .tab whatever the case.
  { key: 'in/data.csv', detected: { type: 'csv', compression: 'none' } },
  { key: 'in/DATA.TSV', detected: { type: 'csv', compression: 'none', delimiter: '\t' } },
  { key: 'in/data.tab.gz', detected: { type: 'csv', compression: 'gzip', delimiter: '\t' } },
  {
    key: 'googlebooks-eng-all-1gram-20120701-a.tsv.gz',
    detected: { type: 'csv', compression: 'gzip', delimiter: '\t' },
  },
  { key: 'in/data.csv.zst', detected: { type: 'csv', compression: 'zstd' } },
  { key: 'in/data.csv.GZIP', detected: { type: 'csv', compression: 'gzip' } },
  // JSON Lines under both common names.
  { key: 'in/events.jsonl', detected: { type: 'jsonl', compression: 'none' } },
  { key: 'in/events.ndjson.zstd', detected: { type: 'jsonl', compression: 'zstd' } },
  // A DynamoDB export's data files are <id>.json.gz: .json is DynamoDB JSON.
  {
    key: 'exp/AWSDynamoDB/01234567890123-abcdefgh/data/bafybeiczss3yxay3o4abnabbb.json.gz',
    detected: { type: 'dynamodb-json', compression: 'gzip' },
  },
  { key: 'items.json', detected: { type: 'dynamodb-json', compression: 'none' } },
  // An Ion export's data files are <id>.ion.gz: DynamoDB's Ion lines, gzip.
  {
    key: 'exp/AWSDynamoDB/01234567890123-abcdefgh/data/bafybeiczss3yxay3o4abnabbb.ion.gz',
    detected: { type: 'dynamodb-ion', compression: 'gzip' },
  },
  // Parquet: Spark's part files name their codec before .parquet; it works inside the file.
  { key: 'lake/part-00000-3f2e-c000.snappy.parquet', detected: { type: 'parquet', compression: 'none' } },
  { key: 'unload/0001_part_00.PARQUET', detected: { type: 'parquet', compression: 'none' } },
  // No known extension: plain CSV with commas, as before formats were detected (Spark's part-00000).
  { key: 'out/part-00000', detected: { type: 'csv', compression: 'none' } },
  { key: 'out/part-00000.gz', detected: { type: 'csv', compression: 'gzip' } },
  { key: 'notes.txt', detected: { type: 'csv', compression: 'none' } },
  // Only the file name counts: a folder named like an extension says nothing.
  { key: 'data.jsonl/part-1.csv', detected: { type: 'csv', compression: 'none' } },
])('detectFormat($key)', ({ key, detected }) => {
  it(`is ${detected.type}, ${detected.compression}`, () => {
    expect(detectFormat(key)).toEqual(detected);
  });
});

describe('namesFormat', () => {
  // Only keys without a known extension have their first bytes checked for Parquet's magic.
  it.each([
    ['out/part-00000', false],
    ['out/part-00000.gz', false],
    ['data.csv', true],
    ['part-0.snappy.parquet', true],
  ])('%s: %s', (key, names) => expect(namesFormat(key)).toBe(names));
});
