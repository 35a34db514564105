import { vi } from 'vitest';

/**
 * Runs `body` and returns the lines it wrote to stdout and stderr, in order. Powertools writes through a
 * Console on process.stdout/stderr: debug and info lines to stdout, warnings and errors to stderr (in Lambda
 * both reach CloudWatch Logs).
 */
export function outputLines(body: () => void): string[] {
  const lines: string[] = [];
  const record = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(record)];
  spies.push(vi.spyOn(process.stderr, 'write').mockImplementation(record));
  try {
    body();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines;
}
