import { diffLineText, type DiffLine } from './diff-lines.js';

/** An object written a piece at a time (wiring/s3-stream-upload.ts StreamUpload has this shape). */
export interface DiffUpload {
  write(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

/** Lines are handed to the upload in runs of about this many bytes: one call per run rather than per line. */
const RUN_BYTES = 64 * 1024;

/**
 * One invocation's diff file (diff-lines.ts), written while the dry run reads: lines go to an upload opened at the
 * first line, so memory holds at most one run and the upload's part, and an invocation that finds no difference
 * writes nothing.
 *
 * @example
 * const diff = new DiffFile(() => startStreamUpload(s3, { bucket, key: diffFileKey(folder, 0, 0), ... }));
 * await diff.add({ op: 'add', key: { id: { S: 'k1' } }, attributes: ['id', 'name'] });
 * await diff.finish(); // stores the file; false when there was no line
 */
export class DiffFile {
  /** Lines added so far. */
  lines = 0;
  private upload: DiffUpload | null = null;
  private run: string[] = [];
  private runBytes = 0;

  constructor(private readonly open: () => DiffUpload) {}

  /** Adds a line; resolves once the upload has room again. */
  async add(line: DiffLine): Promise<void> {
    this.upload ??= this.open();
    const text = diffLineText(line);
    this.run.push(text);
    this.runBytes += text.length;
    this.lines++;
    if (this.runBytes >= RUN_BYTES) await this.handOn(this.upload);
  }

  /** Stores the file; true when there was a line to store. */
  async finish(): Promise<boolean> {
    const { upload } = this;
    if (!upload) return false;
    await this.handOn(upload);
    await upload.end();
    return true;
  }

  /** The invocation failed: nothing is stored. */
  async abort(): Promise<void> {
    this.run = [];
    await this.upload?.abort();
  }

  private async handOn(upload: DiffUpload): Promise<void> {
    const bytes = Buffer.from(this.run.join(''));
    this.run = [];
    this.runBytes = 0;
    await upload.write(bytes);
  }
}
