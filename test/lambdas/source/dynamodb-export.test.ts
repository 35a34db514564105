import { describe, expect, it } from 'vitest';
import { candidateKeys, parseManifestFiles, parseManifestSummary } from '../../../lambdas/source/dynamodb-export.js';

const ID = '01693685827463-2d8752fd';

describe.each([
  // Where the export was written: found as named.
  {
    named: `exp/AWSDynamoDB/${ID}/data/abc.json.gz`,
    folder: `exp/AWSDynamoDB/${ID}/`,
    expected: [`exp/AWSDynamoDB/${ID}/data/abc.json.gz`, `exp/AWSDynamoDB/${ID}/data/abc.json.gz`],
  },
  // Copied under another prefix, layout kept: relative to the manifest's folder, past the export's own id.
  {
    named: `exp/AWSDynamoDB/${ID}/data/abc.json.gz`,
    folder: `backup/t1/AWSDynamoDB/${ID}/`,
    expected: [`exp/AWSDynamoDB/${ID}/data/abc.json.gz`, `backup/t1/AWSDynamoDB/${ID}/data/abc.json.gz`],
  },
  // Copied into a folder of another name: data/<file> under it.
  {
    named: `AWSDynamoDB/${ID}/data/abc.json.gz`,
    folder: 'restore/',
    expected: [`AWSDynamoDB/${ID}/data/abc.json.gz`, 'restore/data/abc.json.gz'],
  },
])('candidateKeys($named) with the manifest in $folder', ({ named, folder, expected }) => {
  it('looks as named first, then relative to the manifest', () => {
    expect(candidateKeys(named, folder)).toEqual([...new Set(expected)]);
  });
});

describe('the manifests', () => {
  it('reads the data-file keys of manifest-files.json, one JSON object a line', () => {
    const text = [
      `{"itemCount":3,"md5Checksum":"x","etag":"y","dataFileS3Key":"AWSDynamoDB/${ID}/data/a.json.gz"}`,
      `{"itemCount":0,"md5Checksum":"x","etag":"y","dataFileS3Key":"AWSDynamoDB/${ID}/data/b.json.gz"}`,
      '',
    ].join('\n');
    expect(parseManifestFiles(text, 'm')).toEqual([
      `AWSDynamoDB/${ID}/data/a.json.gz`,
      `AWSDynamoDB/${ID}/data/b.json.gz`,
    ]);
  });

  it('reads a full DynamoDB JSON export summary', () => {
    const summary = {
      version: '2020-06-30',
      outputFormat: 'DYNAMODB_JSON',
      exportType: 'FULL_EXPORT',
      itemCount: 8,
      manifestFilesS3Key: `AWSDynamoDB/${ID}/manifest-files.json`,
    };
    expect(parseManifestSummary(JSON.stringify(summary), 'm')).toEqual({
      manifestFilesS3Key: summary.manifestFilesS3Key,
      itemCount: 8,
      outputFormat: 'DYNAMODB_JSON',
    });
  });

  it.each([
    // The format the manifest names is the one its data files are read in, whatever their extension.
    [{ outputFormat: 'ION' }, 'ION'],
    // A summary without outputFormat: DynamoDB JSON, the export's default format.
    [{ exportType: 'FULL_EXPORT' }, 'DYNAMODB_JSON'],
  ])('reads the output format of %j', (summary, outputFormat) => {
    expect(parseManifestSummary(JSON.stringify(summary), 'm')).toMatchObject({ outputFormat });
  });

  it.each([
    [{ outputFormat: 'CSV' }, 'outputFormat "CSV": only DYNAMODB_JSON and ION exports can be imported'],
    [{ outputFormat: 'DYNAMODB_JSON', exportType: 'INCREMENTAL_EXPORT' }, 'only full exports can be imported'],
  ])('fails when the export is not a full DynamoDB JSON or Ion one (%j)', (summary, message) => {
    expect(() => parseManifestSummary(JSON.stringify(summary), 's3://b/m')).toThrow(
      expect.objectContaining({ name: 'InvalidRequestError', message: expect.stringContaining(message) }),
    );
  });

  it('fails when a manifest is not JSON', () => {
    expect(() => parseManifestFiles('nope\n', 's3://b/m')).toThrow('s3://b/m line 1: not a DynamoDB export manifest');
  });
});
