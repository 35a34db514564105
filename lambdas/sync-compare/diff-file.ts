import { RunUpload, type PieceUpload } from '../async/run-upload.js';
import { diffLineText, type DiffLine } from './diff-lines.js';

/** An object written a piece at a time (wiring/s3-stream-upload.ts StreamUpload has this shape). */
export type DiffUpload = PieceUpload;

/**
 * One invocation's diff file (diff-lines.ts), written while the dry run reads: lines go to an upload opened at the
 * first line, in runs (async/run-upload.ts), so memory holds at most one run and the upload's part, and an invocation
 * that finds no difference writes nothing.
 *
 * @example
 * const diff = new DiffFile(() => startStreamUpload(s3, { bucket, key: diffFileKey(folder, 0, 0), ... }));
 * await diff.add({ op: 'add', key: { id: { S: 'k1' } }, attributes: ['id', 'name'] });
 * await diff.finish(); // stores the file; false when there was no line
 */
export class DiffFile {
  /** Lines added so far. */
  lines = 0;
  private readonly file: RunUpload;

  constructor(open: () => DiffUpload) {
    this.file = new RunUpload(open);
  }

  /** Adds a line; resolves once the upload has room again. */
  add(line: DiffLine): Promise<void> {
    this.lines++;
    return this.file.add(Buffer.from(diffLineText(line)));
  }

  /** Stores the file; true when there was a line to store. */
  finish(): Promise<boolean> {
    return this.file.finish();
  }

  /** The invocation failed: nothing is stored. */
  abort(): Promise<void> {
    return this.file.abort();
  }
}
