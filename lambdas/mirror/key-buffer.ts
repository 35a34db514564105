import { partOf } from './key-parts.js';

/**
 * Lines gathered by part, in memory, for one invocation: a chunk's file keys or a Scan's table keys. Its owner stops
 * at a bound (`bytes`), so memory is bounded by the invocation, never by the file or the table.
 */
export class KeyBuffer {
  private readonly lines: string[][];
  /** Bytes of text held so far. */
  bytes = 0;
  /** Lines added. */
  count = 0;

  constructor(readonly parts: number) {
    this.lines = Array.from({ length: parts }, () => []);
  }

  /** Adds `line` to the part `canonical` hashes to. */
  add(canonical: string, line: string): void {
    this.lines[partOf(canonical, this.parts)].push(line);
    this.bytes += line.length + 1;
    this.count++;
  }

  /** Each non-empty part as its body (one line each, LF-terminated). */
  bodies(): { part: number; body: string }[] {
    const out: { part: number; body: string }[] = [];
    this.lines.forEach((lines, part) => {
      if (lines.length > 0) out.push({ part, body: `${lines.join('\n')}\n` });
    });
    return out;
  }
}
