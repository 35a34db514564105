import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { open } from 'node:fs/promises';
import type { ResolvedRequest } from '../../../lambdas/contract/import-request.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { chunkLayoutOf, formatTraits } from '../../../lambdas/contract/format-traits.js';
import { CHUNK_LAYOUTS } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { itemSize } from '../../../lambdas/formats/attribute-size.js';
import { isBlankRecord } from '../../../lambdas/formats/csv/csv-records.js';
import type { RawRecord } from '../../../lambdas/formats/record-format.js';
import { createRecordFormat } from '../../../lambdas/formats/record-formats.js';
import { checkComputedAttributes, knownNames } from '../../../lambdas/columns/attribute-check.js';
import { resolveColumns } from '../../../lambdas/columns/column-names.js';
import { RecordScanner, type ScannerDialect } from '../../../lambdas/source/record-scanner.js';
import { indexEntryBytes, writeUnitsOf, type IndexShape } from '../table/index-writes.js';
import { WRITE_MODES, type WriteMode } from '../../../lambdas/contract/import-request.js';
import { writeUnitsOf as modeWriteUnitsOf } from '../../../lambdas/write/write-modes.js';

/** How much of the object is read to measure its rows: the first MiB, one range GET. */
export const SAMPLE_BYTES = 1024 * 1024;
/** What the first MiB tells about the rows: measured with the import's own header, scanner and row mapper. */
export interface SampleFigures {
  /** Bytes before the first data record: a BOM and the header record. */
  readonly headerBytes: number;
  /** Whole data records in the sample (blank lines not counted) and the bytes they take, blank lines included. */
  readonly rows: number;
  readonly rowBytes: number;
  /** Rows of the sample that would be rejected (a bad number, a missing key, ...). */
  readonly rejected: number;
  /** Average DynamoDB item size and write units per item in the table, over the rows that become items. */
  readonly averageItemBytes: number;
  readonly writeUnitsPerItem: number;
  /**
   * Per global secondary index: the share of items it holds (those with its key attributes) and its write units per
   * item, averaged over all items (an item not in it counts 0), on top of the table's (index-writes.ts).
   */
  readonly indexes: readonly IndexFigures[];
  /**
   * Per write mode: the write units per item, the table's and its GSIs' together (lambdas/write/write-units.ts
   * `writeUnitsOf`, the one the dry run counts with), averaged over the items.
   */
  readonly writeUnitsByMode: Record<WriteMode, number>;
}

export interface IndexFigures {
  readonly name: string;
  readonly itemsInIndex: number;
  readonly writeUnitsPerItem: number;
}

/** The first SAMPLE_BYTES of an S3 object (a Range GET; `bytes=` as S3 requires) or of a local file. */
export async function readSample(
  from: { s3: S3Client; bucket: string; key: string } | { path: string },
): Promise<Buffer> {
  if ('path' in from) {
    const file = await open(from.path);
    try {
      const buffer = Buffer.alloc(SAMPLE_BYTES);
      const { bytesRead } = await file.read(buffer, 0, SAMPLE_BYTES, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }
  const answer = await from.s3.send(
    new GetObjectCommand({ Bucket: from.bucket, Key: from.key, Range: `bytes=0-${SAMPLE_BYTES - 1}` }),
  );
  return Buffer.from(await answer.Body!.transformToByteArray());
}

/**
 * Measures a sample: reads the start of the data as preflight does (checking the keys against the table), cuts
 * whole records with the RecordScanner and maps them with the import's own format mapper to get item sizes. A
 * record cut off by the sample's end is left out, unless the sample is the whole object.
 */
export async function measureSample(
  sample: Buffer,
  whole: boolean,
  request: ResolvedRequest,
  keys: KeyAttribute[],
  indexes: readonly IndexShape[] = [],
): Promise<SampleFigures> {
  const { format, columns, dataStart, records } = await sampleRecords(sample, whole, request, keys);
  const rowBytes = records.reduce((sum, r) => sum + r.raw.length, 0);
  const rows = records.filter((r) => !isBlankRecord(r.raw));
  const keyNames = keys.map((k) => k.name);
  const { types, attributes, exclude } = request;
  let items = 0,
    bytes = 0,
    units = 0;
  const inIndex = indexes.map(() => ({ items: 0, units: 0 }));
  const byMode = Object.fromEntries(WRITE_MODES.map((mode) => [mode, 0])) as Record<WriteMode, number>;
  for (const mapped of format.createMapper({ columns, types, keys, attributes, exclude })(rows)) {
    if (!mapped.ok) continue;
    const size = itemSize(mapped.item);
    items++;
    bytes += size;
    units += writeUnitsOf(size);
    const entries: number[] = [];
    indexes.forEach((index, i) => {
      const entry = indexEntryBytes(mapped.item, keyNames, index);
      if (entry === null) return;
      entries.push(entry);
      inIndex[i] = { items: inIndex[i].items + 1, units: inIndex[i].units + writeUnitsOf(entry) };
    });
    for (const mode of WRITE_MODES) byMode[mode] += modeWriteUnitsOf(size, mode, entries);
  }
  return {
    headerBytes: dataStart,
    rows: rows.length,
    rowBytes,
    rejected: rows.length - items,
    averageItemBytes: items > 0 ? bytes / items : 0,
    writeUnitsPerItem: items > 0 ? units / items : 1,
    indexes: indexes.map((index, i) => ({
      name: index.name,
      itemsInIndex: inIndex[i].items,
      writeUnitsPerItem: items > 0 ? inIndex[i].units / items : 0,
    })),
    writeUnitsByMode: Object.fromEntries(
      WRITE_MODES.map((mode) => [mode, items > 0 ? byMode[mode] / items : 1]),
    ) as Record<WriteMode, number>,
  };
}

/** The sample's whole records, read as preflight reads the object's start (keys and computed attributes checked); estimate --mode sync maps them to items. */
export async function sampleRecords(sample: Buffer, whole: boolean, request: ResolvedRequest, keys: KeyAttribute[]) {
  // The built-in tables: estimate samples a bucket from the CLI, where no wiring (and so no test's table) reaches.
  if (!chunkLayoutOf(formatTraits(request.format), CHUNK_LAYOUTS).traits.byteRecords) {
    // A Parquet object's first MiB is column data, not rows: sizing it needs its footer and a row group.
    throw new Error('estimate does not size Parquet sources yet; `local` and `start` import them');
  }
  const format = createRecordFormat(request.format);
  const readFrom = (offset: number) =>
    (async function* () {
      yield sample.subarray(offset);
    })();
  const inRecord = keys.filter((k) => !Object.hasOwn(request.attributes ?? {}, k.name)); // computed keys are not
  const { header, dataStart, dataLine, fields } = await format.readStart(readFrom, sample.length, inRecord);
  const columns = resolveColumns(request, header, keys, dataStart < sample.length || header !== null);
  checkComputedAttributes(request, knownNames(request, columns, [{ fields }]), keys);
  const records = cutRecords(sample, dataStart, dataLine, whole, format.dialect);
  return { format, columns, dataStart, records };
}

function cutRecords(
  sample: Buffer,
  dataStart: number,
  dataLine: number,
  whole: boolean,
  dialect: ScannerDialect,
): RawRecord[] {
  const scanner = new RecordScanner(dialect);
  const data = sample.subarray(dataStart);
  scanner.feed(data);
  const records: RawRecord[] = [];
  let start = 0;
  for (let end = scanner.next(); end !== -1; end = scanner.next()) {
    records.push({ raw: data.subarray(start, end), offset: dataStart + start, line: dataLine + records.length });
    start = end;
  }
  if (whole && start < data.length)
    records.push({ raw: data.subarray(start), offset: dataStart + start, line: dataLine + records.length });
  return records;
}
