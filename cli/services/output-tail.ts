import type { Readable } from 'node:stream';

/** Bytes of child output kept for error messages: enough for a Java stack trace, small enough to print. */
const TAIL_CHARS = 8 * 1024;

/**
 * Keeps the last few KB a child process wrote to stdout and stderr, so a failed start or a failed
 * build can say why without us keeping (or printing) everything a chatty server logs.
 */
export class OutputTail {
  private text = '';

  /** Follows a stream; data is decoded as UTF-8 and interleaved in arrival order. */
  follow(stream: Readable | null): void {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => this.push(chunk));
  }

  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-TAIL_CHARS);
  }

  /** The kept output, indented so it reads as a quoted block inside an error message. */
  toString(): string {
    const trimmed = this.text.trim();
    return trimmed ? trimmed.replace(/^/gm, '  | ') : '  (no output)';
  }
}
