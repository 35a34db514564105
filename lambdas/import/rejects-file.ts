import type { StreamUpload } from '../wiring/s3-stream-upload.js';
import { formatRejectRow, objectField, REJECTS_HEADER, type RejectedRow } from './rejects.js';

/**
 * Rows are handed to the upload in runs of about this many bytes: one call per run rather than per row, and at
 * most this much held before the upload sees it.
 */
const RUN_BYTES = 64 * 1024;

/**
 * One invocation's rejects file (rejects.ts format), written while the import runs: rows go to a streamed upload
 * (wiring/s3-stream-upload.ts) opened at the first rejected row, so memory holds at most one part and one run
 * whatever the count, and an invocation that rejects nothing writes nothing.
 */
export class RejectsFile {
  private upload: StreamUpload | null = null;
  private run: Buffer[] = [];
  private runBytes = 0;
  private readonly object: Buffer;

  /** `open` starts the upload of the file; `object` is the key of the object the rows come from. */
  constructor(
    private readonly open: () => StreamUpload,
    object: string,
  ) {
    this.object = objectField(object);
  }

  /** Adds a row (rows come in file order); resolves once the upload has room again. */
  async add(row: RejectedRow): Promise<void> {
    if (!this.upload) {
      this.upload = this.open();
      this.keep(Buffer.from(REJECTS_HEADER));
    }
    this.keep(formatRejectRow(row, this.object));
    if (this.runBytes >= RUN_BYTES) await this.handOn(this.upload);
  }

  /** Stores the file; true when there was something to store. */
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

  private async handOn(upload: StreamUpload): Promise<void> {
    const bytes = Buffer.concat(this.run);
    this.run = [];
    this.runBytes = 0;
    await upload.write(bytes);
  }
}
