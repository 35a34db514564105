import { parquetSchema } from 'hyparquet';
import {
  readParquetFooter,
  type FetchRange,
  type ParquetFooter,
  type RowGroupSpan,
} from '../formats/parquet/parquet-footer.js';
import {
  createParquetRowMapper,
  type ParquetRow,
  type ParquetRowMapper,
} from '../formats/parquet/parquet-row-mapper.js';
import { readerMetadata, readRowGroup } from '../formats/parquet/row-group-reader.js';
import { parquetRowText } from '../formats/parquet/row-text.js';
import { buffer } from 'node:stream/consumers';
import { drainSink, type ImportChunkParams, type ImportChunkResult } from './chunk-importer.js';
import type { RejectedRow } from './rejects.js';
import type { Checkpoint } from '../contract/workflow-payloads.js';
import type { ItemSink } from '../write/item-sink.js';

/**
 * Rows handed to the sink between deadline checks: one BatchWriteItem's worth, as for byte records (see
 * chunk-importer.ts), so past the deadline at most one more batch goes to the writer.
 */
const STOP_CHECK_ROWS = 25;
/** Footers kept per container: a chunk's checkpoint loop reads the same object's footer on every invocation. */
const FOOTERS_KEPT = 8;
const footers = new Map<string, Promise<ParquetFooter>>();

function cachedFooter(id: string, read: () => Promise<ParquetFooter>): Promise<ParquetFooter> {
  let footer = footers.get(id);
  if (!footer) {
    footer = read();
    footer.catch(() => footers.delete(id));
    footers.set(id, footer);
    if (footers.size > FOOTERS_KEPT) footers.delete(footers.keys().next().value!);
  }
  return footer;
}

/**
 * Imports one Parquet chunk: the row groups whose data starts in [chunk.start, chunk.end) (see Chunk), from the
 * checkpoint's row (`from.line` is the 1-based row number in the file; `from.offset` the byte offset of its row
 * group). Each row group is fetched with one range GET (pinned to the ETag) and decoded a slice at a time; rows
 * are mapped and handed to the sink in file order, each with its place in the file (RowMark). Past its deadline
 * (checked every 25 rows) it stops, drains the sink and returns the first row not handled; a sink that stopped
 * sending (a pause, the deadline) returns its first unwritten row instead (ItemSink.heldFrom). Rejects carry the
 * row number as `line`, the row group's byte offset as `offset`, and the row as JSON text.
 */
export async function importParquetChunk(params: ImportChunkParams): Promise<ImportChunkResult> {
  const { job, plan, from, read, sink, shouldStop, reject } = params;
  const { chunk, where, size } = plan;
  const fetch: FetchRange = (start, end) => buffer(read(start, end));
  const etag = plan.source.kind === 'ranges' ? plan.source.object.etag : '';
  const footer = await cachedFooter(`${where}#${etag}`, () => readParquetFooter(fetch, size, where));
  const mapRow = rowMapperOf(job, footer);
  const metadata = readerMetadata(footer.metadata);
  const groups = footer.rowGroups.filter((g) => g.start >= chunk.start && g.start < chunk.end);
  const run: RowCounts = { rows: 0, rejected: 0, rejects: [], reject };
  let next: Checkpoint | null = null;
  for (const group of groups) {
    if (group.firstRow + group.rows < from.line) continue; // done by an earlier invocation
    const slices = readRowGroup(fetch, size, metadata, group, from.line - 1, where);
    next = await importSlices(slices, group, { mapRow, sink, shouldStop, run });
    if (next) break;
    if (shouldStop() && group !== groups.at(-1)) {
      const after = groups[groups.indexOf(group) + 1];
      next = { offset: after.start, line: after.firstRow + 1 };
      break;
    }
  }
  return finish(sink, from, run, next);
}

/** The request's row mapper over the file's schema. */
function rowMapperOf(job: ImportChunkParams['job'], footer: ParquetFooter): ParquetRowMapper {
  return createParquetRowMapper({
    schema: parquetSchema(footer.metadata),
    types: job.request.types,
    keys: job.keys,
    ...(job.request.attributes ? { attributes: job.request.attributes } : {}),
    ...(job.request.exclude ? { exclude: job.request.exclude } : {}),
  });
}

/** Drains the sink: every row before the returned checkpoint is then written or rejected. */
async function finish(
  sink: ItemSink,
  from: Checkpoint,
  run: RowCounts,
  stoppedAt: Checkpoint | null,
): Promise<ImportChunkResult> {
  const { next, rows, rejected } = await drainSink(sink, stoppedAt, run);
  // Rows are lines here: the row number after the last row handled (a Parquet chunk always knows its first row).
  const lineAfter = next ? next.line : from.line + rows;
  return { next, rows, rejected, rejects: run.rejects, lineAfter };
}

/** The rows this invocation handled so far, the rejected among them, and where rejects go. */
interface RowCounts {
  rows: number;
  rejected: number;
  readonly rejects: RejectedRow[];
  readonly reject: ImportChunkParams['reject'];
}

interface SliceRun {
  readonly mapRow: ParquetRowMapper;
  readonly sink: ItemSink;
  readonly shouldStop: () => boolean;
  readonly run: RowCounts;
}

/**
 * A row's size for the write window's byte bound (RowMark.bytes), which bounds what a lane holds in memory and reads
 * again after a stop: the group's decoded size per row, since a row has no bytes of its own in the file and its
 * compressed share can be a small fraction of the item it becomes. At least 1, so each row counts.
 */
function rowBytes(group: RowGroupSpan): number {
  return Math.max(1, Math.ceil(group.uncompressedBytes / Math.max(1, group.rows)));
}

/** Hands a row group's rows to the sink; returns the checkpoint of the first row left when told to stop. */
async function importSlices(
  slices: AsyncIterable<{ firstRow: number; rows: ParquetRow[] }>,
  group: RowGroupSpan,
  { mapRow, sink, shouldStop, run }: SliceRun,
): Promise<Checkpoint | null> {
  const bytes = rowBytes(group);
  for await (const slice of slices) {
    for (let i = 0; i < slice.rows.length; i++) {
      const rowNumber = slice.firstRow + i + 1;
      if (run.rows > 0 && run.rows % STOP_CHECK_ROWS === 0 && shouldStop()) {
        return { offset: group.start, line: rowNumber };
      }
      // Its place in the file: where the lane resumes if the sink stops before writing it (ItemSink.heldFrom).
      const at = { offset: group.start, line: rowNumber, rows: run.rows++, rejected: run.rejected, bytes };
      const mapped = mapRow(slice.rows[i]);
      if (mapped.ok) {
        const queued = sink.add(mapped.item, mapped.key, at);
        if (queued) await queued;
      } else {
        const raw = Buffer.from(parquetRowText(slice.rows[i]));
        const row = { line: rowNumber, offset: group.start, raw, length: raw.length, reason: mapped.reason };
        run.rejected++;
        if (run.reject) await run.reject(row);
        else run.rejects.push(row);
      }
    }
  }
  return null;
}
