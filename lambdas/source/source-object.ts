/** The object one import reads: every GET names the ETag preflight saw. */
export interface SourceObject {
  readonly bucket: string;
  readonly key: string;
  readonly etag: string;
}

/** Reads the object from a byte offset to its end, as a stream of buffers. */
export type ReadFrom = (offset: number) => AsyncIterable<Buffer>;
