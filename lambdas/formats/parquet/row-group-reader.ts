import { parquetReadObjects, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { CorruptSourceError, ImportError } from '../../contract/errors.js';
import type { FetchRange, RowGroupSpan } from './parquet-footer.js';
import { PARQUET_PARSERS } from './parquet-parsers.js';
import { isDecimal } from './parquet-values.js';
import type { ParquetRow } from './parquet-row-mapper.js';

/**
 * Rows are decoded in slices of at most this much decoded data and this many rows: a row group is held compressed
 * (1x) while its rows are decoded a slice at a time, so a 128 MB row group does not become a gigabyte of JS objects
 * at once. Rows, not bytes, are what costs memory once decoded (a 1-gram row is ~17 bytes in Parquet and ~150 as a
 * JS object with its strings and BigInts). Each slice decodes again the dictionary page and the pages it starts or
 * ends inside: measured on a 1M-row group of 1-gram rows (bench/.data, `BENCH_PARQUET_ROUNDS=0`), whole: 2.1 s and
 * 393 MB RSS; 200k-row slices 2.1 s, 343 MB; 50k 3.7 s, 266 MB; 20k 4.5 s, 242 MB.
 */
const SLICE_DECODED_BYTES = 16 * 1024 * 1024;
const SLICE_ROWS = 50_000;

/**
 * The footer as the reader is handed it: DECIMAL leaves without their annotation, so the library gives the
 * unscaled integers (numbers, BigInts or bytes) instead of converting them to lossy floats; parquet-values.ts
 * scales them exactly from the schema as written.
 */
export function readerMetadata(metadata: FileMetaData): FileMetaData {
  const schema = metadata.schema.map((element) => {
    if (!isDecimal(element)) return element;
    const { converted_type: _converted, logical_type: _logical, ...plain } = element;
    return plain;
  });
  return { ...metadata, schema };
}

/**
 * An AsyncBuffer over one row group's bytes, fetched once with one range GET: every column chunk the library asks
 * for is a slice of it. So a lane holds at most one row group's column chunks, and each is read once.
 */
async function rowGroupBuffer(fetch: FetchRange, size: number, group: RowGroupSpan): Promise<AsyncBuffer> {
  const bytes = await fetch(group.start, group.end);
  return {
    byteLength: size,
    slice(start, end = size) {
      if (start < group.start || end > group.end) {
        throw new Error(`read of bytes ${start}-${end} outside row group ${group.index} (${group.start}-${group.end})`);
      }
      const from = bytes.byteOffset + start - group.start;
      return bytes.buffer.slice(from, from + (end - start)) as ArrayBuffer;
    },
  };
}

export interface RowSlice {
  /** 0-based index in the file of the slice's first row. */
  readonly firstRow: number;
  readonly rows: ParquetRow[];
}

/**
 * Reads rows [fromRow, end of group) of one row group (fromRow counts from the file's first row), in slices of
 * at most SLICE_DECODED_BYTES decoded and `maxSliceRows` rows. Data that does not decode fails with CorruptSourceError naming the object and
 * the row group.
 */
export async function* readRowGroup(
  fetch: FetchRange,
  size: number,
  metadata: FileMetaData,
  group: RowGroupSpan,
  fromRow: number,
  where: string,
  maxSliceRows = SLICE_ROWS,
): AsyncGenerator<RowSlice> {
  const file = await rowGroupBuffer(fetch, size, group);
  const byBytes = Math.floor((group.rows * SLICE_DECODED_BYTES) / Math.max(1, group.uncompressedBytes));
  const sliceRows = Math.max(1, Math.min(maxSliceRows, byBytes));
  const groupEnd = group.firstRow + group.rows;
  for (let rowStart = Math.max(fromRow, group.firstRow); rowStart < groupEnd; rowStart += sliceRows) {
    const rowEnd = Math.min(groupEnd, rowStart + sliceRows);
    let rows: ParquetRow[];
    try {
      rows = await parquetReadObjects({
        file,
        metadata,
        rowStart,
        rowEnd,
        compressors,
        parsers: PARQUET_PARSERS,
        utf8: false, // bytes without a text annotation stay bytes (B); STRING/UTF8 columns are still decoded
      });
    } catch (error) {
      if (error instanceof ImportError) throw error;
      throw new CorruptSourceError(
        `${where}: row group ${group.index} (bytes ${group.start}-${group.end}) does not decode: ${(error as Error).message}`,
        { cause: error },
      );
    }
    yield { firstRow: rowStart, rows };
  }
}
