import { parquetMetadata, type FileMetaData, type RowGroup } from 'hyparquet';
import { CorruptSourceError, ImportError } from '../../contract/errors.js';
import { PARQUET_MAGIC } from '../../request/detect-format.js';
import { standardLists } from './standard-lists.js';

/** Reads bytes [start, end) of the object into one buffer (range GETs pinned to its ETag). */
export type FetchRange = (start: number, end: number) => Promise<Buffer>;

/**
 * The tail read first: most footers are a few KB (a 100-column file's is ~20 KB), so one GET of the last 64 KiB
 * usually holds the footer, its 4-byte length and the closing magic; a longer footer takes a second GET.
 */
const TAIL_BYTES = 64 * 1024;
/** A footer ends with its length (4 bytes, little-endian) and the magic `PAR1` (4 bytes). */
const FOOTER_TRAILER_BYTES = 8;
/** The smallest Parquet file: `PAR1`, an empty footer would still not fit, so anything shorter is cut short. */
const MIN_FILE_BYTES = 12;

/** One row group where it lies in the file: its column chunks span [start, end). */
export interface RowGroupSpan {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly rows: number;
  /** 0-based index in the file of its first row. */
  readonly firstRow: number;
  /** Its data as decoded (the footer's total_byte_size): what decoding it may hold in memory at once. */
  readonly uncompressedBytes: number;
}

/** The footer of one object and its row groups. */
export interface ParquetFooter {
  readonly metadata: FileMetaData;
  readonly rowGroups: RowGroupSpan[];
}

const corrupt = (where: string, why: string, cause?: unknown) =>
  new CorruptSourceError(`${where} is not a readable Parquet file: ${why}`, cause ? { cause } : undefined);

/**
 * Reads and parses an object's footer (https://parquet.apache.org/docs/file-format/: data, then the thrift
 * FileMetaData, its length, `PAR1`) with one or two range reads from the end, never the data. A file without
 * the closing magic (cut short), a footer that does not parse, or row groups that point past the footer fail with
 * CorruptSourceError naming the object. S3 errors (a changed ETag, a missing object) pass through as they are.
 */
export async function readParquetFooter(fetch: FetchRange, size: number, where: string): Promise<ParquetFooter> {
  if (size < MIN_FILE_BYTES) throw corrupt(where, `${size} bytes is too short to hold a Parquet footer`);
  let tail = await fetch(Math.max(0, size - TAIL_BYTES), size);
  if (tail.subarray(-4).toString('latin1') !== PARQUET_MAGIC) {
    throw corrupt(where, `it does not end with ${PARQUET_MAGIC} (cut short, or not Parquet)`);
  }
  const footerBytes = tail.readUInt32LE(tail.length - FOOTER_TRAILER_BYTES);
  const footerStart = size - FOOTER_TRAILER_BYTES - footerBytes;
  if (footerStart < 4) throw corrupt(where, `its footer length ${footerBytes} is longer than the file`);
  if (footerBytes + FOOTER_TRAILER_BYTES > tail.length) tail = await fetch(footerStart, size);
  const footer = tail.subarray(tail.length - FOOTER_TRAILER_BYTES - footerBytes);
  let metadata: FileMetaData;
  try {
    metadata = standardLists(parquetMetadata(footer)); // lists of older writers in the shape the reader assembles
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw corrupt(where, `its footer does not parse (${(error as Error).message})`, error);
  }
  return { metadata, rowGroups: rowGroupSpans(metadata.row_groups, footerStart, where) };
}

/** Where each row group's column chunks lie; each must lie before the footer, or the footer lies. */
function rowGroupSpans(groups: readonly RowGroup[], footerStart: number, where: string): RowGroupSpan[] {
  let firstRow = 0;
  return groups.map((group, index) => {
    let start = Number.MAX_SAFE_INTEGER;
    let end = 0;
    for (const column of group.columns) {
      const meta = column.meta_data;
      if (!meta) throw corrupt(where, `row group ${index} has a column without metadata`);
      const dictionary = meta.dictionary_page_offset ? Number(meta.dictionary_page_offset) : Number.MAX_SAFE_INTEGER;
      const columnStart = Math.min(dictionary, Number(meta.data_page_offset));
      start = Math.min(start, columnStart);
      end = Math.max(end, columnStart + Number(meta.total_compressed_size));
    }
    if (group.columns.length === 0 || start < 4 || end > footerStart) {
      throw corrupt(where, `row group ${index} lies at bytes ${start}-${end}, outside the data (4-${footerStart})`);
    }
    const span = {
      index,
      start,
      end,
      rows: Number(group.num_rows),
      firstRow,
      uncompressedBytes: Number(group.total_byte_size),
    };
    firstRow += span.rows;
    return span;
  });
}
