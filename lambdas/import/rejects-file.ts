import { RunUpload, type PieceUpload } from '../async/run-upload.js';
import { formatRejectRow, objectField, REJECTS_HEADER, type RejectedRow } from '../chunk-layouts/rejects.js';

/**
 * One invocation's rejects file (rejects.ts format), written while the import runs: rows go to a streamed upload
 * (wiring/s3-stream-upload.ts) opened at the first rejected row, header first, in runs (async/run-upload.ts), so
 * memory holds at most one part and one run whatever the count, and an invocation that rejects nothing writes nothing.
 */
export class RejectsFile {
  private readonly file: RunUpload;
  private readonly object: Buffer;

  /** `open` starts the upload of the file; `object` is the key of the object the rows come from. */
  constructor(open: () => PieceUpload, object: string) {
    this.file = new RunUpload(open, Buffer.from(REJECTS_HEADER));
    this.object = objectField(object);
  }

  /** Adds a row (rows come in file order); resolves once the upload has room again. */
  add(row: RejectedRow): Promise<void> {
    return this.file.add(formatRejectRow(row, this.object));
  }

  /** Stores the file; true when there was something to store. */
  finish(): Promise<boolean> {
    return this.file.finish();
  }

  /** The invocation failed: nothing is stored (a multipart upload already started is aborted). */
  abort(): Promise<void> {
    return this.file.abort();
  }
}
