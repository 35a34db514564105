/** An object written a piece at a time (wiring/s3-stream-upload.ts StreamUpload has this shape). */
export interface PieceUpload {
  write(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Bytes are handed to the upload in runs of about this many: one call per run rather than per line, and at most this
 * much held before the upload sees it.
 */
const RUN_BYTES = 64 * 1024;

/**
 * A file of lines written while an invocation runs (its rejects, a dry run's diff): the upload is opened at the first
 * line, with `header` first when given, so memory holds at most one run and the upload's part whatever the count, and
 * an invocation with no line writes nothing.
 *
 * @example
 * const file = new RunUpload(() => startStreamUpload(s3, { bucket, key, kmsKeyArn: null }));
 * await file.add(Buffer.from('one line\n'));
 * await file.finish(); // true: stored; false when no line was added
 */
export class RunUpload {
  private upload: PieceUpload | null = null;
  private run: Buffer[] = [];
  private runBytes = 0;

  constructor(
    private readonly open: () => PieceUpload,
    private readonly header?: Buffer,
  ) {}

  /** Adds a line; resolves once the upload has room again. */
  async add(line: Buffer): Promise<void> {
    if (!this.upload) {
      this.upload = this.open();
      if (this.header) this.keep(this.header);
    }
    this.keep(line);
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

  /** The invocation failed: nothing is stored (a multipart upload already started is aborted). */
  async abort(): Promise<void> {
    this.run = [];
    await this.upload?.abort();
  }

  private keep(bytes: Buffer): void {
    this.run.push(bytes);
    this.runBytes += bytes.length;
  }

  private async handOn(upload: PieceUpload): Promise<void> {
    const bytes = Buffer.concat(this.run);
    this.run = [];
    this.runBytes = 0;
    await upload.write(bytes);
  }
}
