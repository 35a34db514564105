import { csvRecordFormat } from './csv/csv-format.js';
import { dynamoIonFormat } from './ion/dynamo-ion-format.js';
import { dynamoJsonFormat } from './json/dynamo-json-format.js';
import { jsonLinesFormat } from './json/json-lines-format.js';
import type { RecordFormat } from './record-format.js';
import type { ResolvedFormat } from '../contract/import-request.js';

/**
 * The reader and mapper for a request's format. A format without `type` is CSV: workflow state written
 * before formats had types (a redriven execution) holds CSV requests only.
 */
export function createRecordFormat(format: ResolvedFormat): RecordFormat {
  switch (format.type) {
    case 'jsonl':
      return jsonLinesFormat();
    case 'dynamodb-json':
      return dynamoJsonFormat();
    case 'dynamodb-ion':
      return dynamoIonFormat();
    case 'parquet':
      // Not a format of byte records: preflight and the import read it by row group (formats/parquet/).
      throw new Error('Parquet objects are read by row group, not as records of bytes');
    default:
      return csvRecordFormat({ ...format, type: 'csv' });
  }
}
