import { csvParseOptions, parseRecords } from './csv-records.js';
import { readHeader } from './header.js';
import { createComputedRowMapper } from './computed-row-mapper.js';
import { createRowMapper } from './row-mapper.js';
import { computedAttributes } from '../computed-attributes.js';
import type { RecordFormat } from '../record-format.js';
import type { ResolvedCsvFormat } from '../../contract/import-request.js';
import { scannerDialect } from '../../source/record-scanner.js';

/**
 * CSV/TSV: quote-aware record boundaries, an optional header record, and rows parsed in blocks by csv-parse
 * (one call amortised over thousands of rows), then mapped to items column by column.
 */
export function csvRecordFormat(format: ResolvedCsvFormat): RecordFormat {
  const dialect = scannerDialect(format);
  const parseOptions = csvParseOptions(format);
  return {
    dialect,
    readStart: (read, size) => readHeader(read, size, format, dialect),
    createMapper(schema) {
      const computed = computedAttributes(schema);
      const mapRow = computed ? createComputedRowMapper(schema, computed) : createRowMapper(schema);
      return (records) =>
        parseRecords(records, parseOptions).map((parsed) =>
          'error' in parsed ? { ok: false, reason: parsed.error } : mapRow(parsed.fields),
        );
    },
  };
}
