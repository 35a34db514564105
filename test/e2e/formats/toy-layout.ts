import type { ChunkLayoutEntry } from '../../../lambdas/chunk-layouts/chunk-layout.js';
import type { ImportChunkParams, ImportChunkResult } from '../../../lambdas/chunk-layouts/chunk-importer.js';
import type { LayoutPlanner } from '../../../lambdas/chunk-layouts/layout-planner.js';
import type { RejectedRow } from '../../../lambdas/chunk-layouts/rejects.js';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';
import type { FormatTraits } from '../../../lambdas/contract/format-traits.js';
import type { Checkpoint, ImportJob } from '../../../lambdas/contract/workflow-payloads.js';
import type { SourceFormat } from '../../../lambdas/formats/record-formats.js';
import type { Item } from '../../../lambdas/write/item-sink.js';

/**
 * A toy chunk layout, `fixed-width`: every record is one line of exactly RECORD_BYTES bytes, its fields at fixed
 * columns, padded with spaces. Where records start is known from the offset alone, so its planner cuts chunks on
 * record boundaries and gives each its first line, and its importer slices records without a scanner.
 */
export const RECORD_BYTES = 32;
/** The fields, each [start, end) in a record; byte 31 is the LF. */
export const FIELDS = [
  { name: 'pk', start: 0, end: 10 },
  { name: 'n', start: 10, end: 20 },
  { name: 'note', start: 20, end: 31 },
] as const;
/** Records handed to the sink between deadline checks: one BatchWriteItem's worth, as the built-in importers do. */
const STOP_CHECK_RECORDS = 25;

/** Names from the layout itself (no object's start is read); the chunks as whole runs of records. */
const FIXED_WIDTH_PLANNER: LayoutPlanner = {
  async readNames(_request, _planning, keys) {
    const columns = FIELDS.map((f) => f.name);
    const missing = keys.filter((k) => !columns.includes(k.name as (typeof columns)[number]));
    if (missing.length)
      throw new InvalidRequestError([`key "${missing[0].name}" is no field of ${columns.join(', ')}`]);
    return { columns, dataLine: 1, known: { names: columns, what: 'the fixed-width fields' }, starts: {} };
  },
  async planObject({ planning }, object, resume) {
    if (object.compression !== 'none') throw new InvalidRequestError([`${object.where}: fixed-width is read plain`]);
    // As many whole records as fit in the chunk size (at least one): 2048-byte chunks hold 64 records.
    const chunkBytes = Math.max(1, Math.floor(planning.budget.chunkBytes / RECORD_BYTES)) * RECORD_BYTES;
    const ranges = [];
    for (let start = resume?.offset ?? 0; start < object.size; start += chunkBytes) {
      ranges.push({ start, end: Math.min(object.size, start + chunkBytes), line: start / RECORD_BYTES + 1 });
    }
    return { ranges, next: null, end: { offset: object.size, line: Math.ceil(object.size / RECORD_BYTES) + 1 } };
  },
};

/** A record's place and bytes; the object's last may be short (a damaged file), and is rejected, not dropped. */
interface FixedRecord {
  readonly raw: Buffer;
  readonly offset: number;
  readonly line: number;
}

async function* fixedRecords(read: ImportChunkParams['read'], from: Checkpoint, end: number) {
  let [pending, offset, line] = [Buffer.alloc(0), from.offset, from.line];
  for await (const buf of read(from.offset, end)) {
    for (pending = Buffer.concat([pending, buf]); pending.length >= RECORD_BYTES; offset += RECORD_BYTES, line++) {
      yield { raw: pending.subarray(0, RECORD_BYTES), offset, line } satisfies FixedRecord;
      pending = pending.subarray(RECORD_BYTES);
    }
  }
  if (pending.length) yield { raw: pending, offset, line } satisfies FixedRecord;
}

/** A record to an item: each field trimmed, omitted when empty, `N` where the table's key or `types` say so. */
function mapFixedRecord(raw: Buffer, job: ImportJob) {
  if (raw.length !== RECORD_BYTES) return { ok: false as const, reason: `record is ${raw.length} bytes, not 32` };
  const item: Item = {};
  for (const { name, start, end } of FIELDS) {
    const value = raw.toString('utf8', start, end).trimEnd();
    const type = job.keys.find((k) => k.name === name)?.type ?? job.request.types[name] ?? 'S';
    if (type === 'N' && value && !/^-?\d+$/.test(value)) return { ok: false as const, reason: `${name}: not a number` };
    if (value) item[name] = type === 'N' ? { N: value } : { S: value };
  }
  const missing = job.keys.find((k) => item[k.name] === undefined);
  if (missing) return { ok: false as const, reason: `key attribute "${missing.name}" is missing` };
  return { ok: true as const, item, key: job.keys.map((k) => JSON.stringify(item[k.name])).join('|') };
}

/** Imports the chunk's records from `from`, stopping at a record boundary when told: each written or rejected. */
async function importFixedWidthChunk(params: ImportChunkParams): Promise<ImportChunkResult> {
  const { job, plan, from, sink } = params;
  const run = { rows: 0, rejected: 0, rejects: [] as RejectedRow[], next: null as Checkpoint | null };
  for await (const { raw, offset, line } of fixedRecords(params.read, from, plan.chunk.end)) {
    if (run.rows > 0 && run.rows % STOP_CHECK_RECORDS === 0 && params.shouldStop()) {
      run.next = { offset, line };
      break;
    }
    const mapped = mapFixedRecord(raw, job);
    const at = { offset, line, rows: run.rows++, rejected: run.rejected, bytes: raw.length };
    if (mapped.ok) await sink.add(mapped.item, mapped.key, at);
    else {
      const row = { line, offset, raw: raw.subarray(0, RECORD_BYTES - 1), length: raw.length, reason: mapped.reason };
      run.rejected++;
      if (params.reject) await params.reject(row);
      else run.rejects.push(row);
    }
  }
  await sink.flush();
  // A sink that stopped sending (a pause) resumes from its first unwritten row, its counts those before it.
  const held = sink.heldFrom;
  if (held)
    Object.assign(run, { next: { offset: held.offset, line: held.line }, rows: held.rows, rejected: held.rejected });
  const lineAfter = run.next ? run.next.line : from.line + run.rows;
  return { next: run.next, rows: run.rows, rejected: run.rejected, rejects: run.rejects, lineAfter };
}

/** The toy layout's entry in a table of chunk layouts (CHUNK_LAYOUTS). */
export const FIXED_WIDTH_LAYOUT: ChunkLayoutEntry = {
  // Records lie whole inside their chunk and are found from the offset, not by a scanner dialect.
  traits: { byteRecords: false, lastRecordPastEnd: false, offsetsRepeat: false },
  planner: FIXED_WIDTH_PLANNER,
  importer: importFixedWidthChunk,
};

/** A toy format that reaches the layout: its traits name it; it has no reader of byte records (the layout reads). */
const TOY_FIXED_TRAITS: FormatTraits = {
  title: 'toy fixed-width',
  layout: 'fixed-width',
  typedRecords: false,
  textColumns: false,
  compressedInside: false,
  headerColumns: false,
};

/** The toy format's entry in a table of source formats (SOURCE_FORMATS). */
export const TOY_FIXED_FORMAT: SourceFormat = { traits: TOY_FIXED_TRAITS };
