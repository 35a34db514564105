import { RecordScanner, type ScannerDialect } from '../source/record-scanner.js';
import { stagedPieceKey } from '../source/staged-piece.js';
import { pieceBytes } from './chunk-budget.js';
import type { ByteRange } from './range-planner.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import { recordsOf, type Planning, type PlannedObject } from './planning-inputs.js';
import type { ObjectPlan } from './range-planner.js';
import { SourceTooLargeError } from '../contract/errors.js';
import type { Checkpoint, Chunk } from '../contract/workflow-payloads.js';

/** Stores one staged piece (a PutObject of the bytes under its key). */
export type PutPiece = (key: string, body: Buffer) => Promise<void>;

export interface StageParams {
  readonly dialect: ScannerDialect;
  /** `<stagingPrefix>/<execution>`: where the pieces go. */
  readonly staging: string;
  readonly object: number;
  /** Where to resume in the decompressed data: a record boundary (the data start on the first call). */
  readonly from: Checkpoint;
  /** The decompressed data from an offset (decompressed again from the start and skipped up to it). */
  readonly read: (offset: number, lineAt: number) => AsyncIterable<Buffer>;
  /** The target size of the next piece, given how many pieces this call made so far. */
  readonly pieceBytes: (made: number) => number;
  readonly put: PutPiece;
  /** Asked after each piece: true when the invocation should return a checkpoint now. */
  readonly shouldStop: () => boolean;
}

export interface StageResult {
  /** Each piece's range of the decompressed data; the piece object holds exactly those bytes. */
  readonly pieces: ByteRange[];
  /** Where the next call resumes, or null once the object is staged to its end. */
  readonly next: Checkpoint | null;
}

/**
 * The S3 trampoline for one big compressed object: decompresses it once and stores record-aligned plain pieces
 * (each ends at the first record boundary at or past its target size), which the Map then imports as plain
 * range-readable chunks. Stops after a piece once asked, so every call stores at least one piece; the next call
 * decompresses again from the start and skips to the checkpoint (compressed data cannot be entered mid-way).
 */
export async function stageObject(params: StageParams): Promise<StageResult> {
  const { dialect, staging, object, from, read, pieceBytes, put, shouldStop } = params;
  const scanner = new RecordScanner(dialect);
  const pieces: ByteRange[] = [];
  let parts: Buffer[] = [];
  let pieceStart = from.offset;
  let pieceLine = from.line;
  let bufferStart = from.offset;
  // One PUT in flight while the next piece is decompressed: staging runs at about the slower of the two rates.
  let putting: Promise<void> = Promise.resolve();
  const store = async (end: number) => {
    const body = Buffer.concat(parts);
    const key = stagedPieceKey(staging, object, pieceStart);
    parts = [];
    await putting;
    putting = put(key, body);
    putting.catch(() => undefined); // handled: a failure is thrown where `putting` is next awaited
    pieces.push({ start: pieceStart, end, line: pieceLine });
    pieceStart = end;
    pieceLine = from.line + scanner.lines;
  };
  // Every piece returned is stored: the last PUT is awaited before any return.
  const done = async (next: Checkpoint | null): Promise<StageResult> => {
    await putting;
    return { pieces, next };
  };
  try {
    for await (const buf of read(from.offset, from.line)) {
      scanner.feed(buf);
      let taken = 0;
      for (
        let end = scanner.next(pieceStart + pieceBytes(pieces.length) - bufferStart);
        end !== -1;
        end = scanner.next(pieceStart + pieceBytes(pieces.length) - bufferStart)
      ) {
        parts.push(buf.subarray(taken, end));
        taken = end;
        await store(bufferStart + end);
        if (shouldStop()) return await done({ offset: pieceStart, line: pieceLine });
      }
      if (taken < buf.length) parts.push(buf.subarray(taken));
      bufferStart += buf.length;
    }
    if (bufferStart > pieceStart) await store(bufferStart);
    return await done(null);
  } finally {
    await putting.catch(() => undefined); // a failed PUT fails the call above; never leave one running
  }
}

/** Stages a big compressed object of the plan from `from` into plain pieces, within the budget's staged room. */
/** What staging a planned object reads: the request, the plan, the PUT and the deadline. */
export interface StagePlanParams {
  readonly request: ResolvedRequest;
  readonly planning: Planning;
  readonly io: { putObject(bucket: string, key: string, body: Buffer): Promise<void> };
  readonly shouldStop: () => boolean;
}

export async function stagePlannedObject(
  params: StagePlanParams,
  object: PlannedObject,
  from: Checkpoint,
  resumed: boolean,
  before: readonly Chunk[],
  data: (offset: number, lineAt?: number) => AsyncIterable<Buffer>,
): Promise<ObjectPlan> {
  const { request, planning, io, shouldStop } = params;
  const { budget, objects, sources } = planning;
  const stagedBefore = before.filter((chunk) => objects[chunk.object].staged).length;
  const stagedAfter = objects.slice(object.index + 1).filter((o) => o.staged).length;
  const where = object.where;
  const staged = await stageObject({
    dialect: recordsOf(planning).dialect,
    staging: sources.staging!,
    object: object.index,
    from,
    read: resumed ? (offset, line) => failIfSkipTookTheInvocation(data(offset, line), offset, shouldStop, where) : data,
    pieceBytes: (made) => pieceBytes(budget.chunkBytes, stagedBefore + made, budget.stagedRoom - stagedAfter, where),
    put: (key, body) => io.putObject(request.bucket, key, body),
    shouldStop,
  });
  const end = staged.pieces.at(-1) ?? { end: from.offset, line: from.line };
  return { ranges: staged.pieces, next: staged.next, end: { offset: end.end, line: from.line } };
}

/**
 * Resuming a staged object decompresses it again up to the checkpoint. When the deadline came while doing so
 * and that took a minute or more, the next invocation would skip as long again and get no further: fail by
 * name instead of timing out on every retry. At the measured decompression rates (docs/performance.md, "sources and staging") a
 * 15-minute preflight meets this only past some 100 GB of decompressed data.
 */
export const SLOW_SKIP_MS = 60_000;

export async function* failIfSkipTookTheInvocation(
  data: AsyncIterable<Buffer>,
  offset: number,
  shouldStop: () => boolean,
  where: string,
  clock: () => number = () => performance.now(),
): AsyncGenerator<Buffer> {
  const started = clock();
  let first = true;
  for await (const buf of data) {
    if (first && shouldStop() && clock() - started >= SLOW_SKIP_MS) {
      throw new SourceTooLargeError(
        `${where}: decompressing it again up to byte ${offset}, where staging stopped, took ` +
          'this preflight invocation to its deadline: the object is too big to stage; split it into several objects',
      );
    }
    first = false;
    yield buf;
  }
}
