import { describe, expect, it } from 'vitest';
import { formatRejects, type RejectedRow } from '../../../lambdas/chunk-layouts/rejects.js';
import { rejectsRowEnding } from '../../../lambdas/contract/relative-rejects.js';
import { LineRenumbering, renumberRejects } from '../../../lambdas/summarize/absolute-lines.js';

const row = (line: number, raw: string | Buffer, reason = 'column "n": not a number: "x"'): RejectedRow => {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
  return { line, offset: line * 10, reason, raw: bytes, length: bytes.length };
};

/**
 * Rows whose bytes make a row's end hard to find: quotes doubled, an LF and a CRLF inside a quoted field, a comma
 * in the reason, invalid UTF-8, a field that is only quotes, a record too large to copy (its byte range instead).
 */
const ROWS: RejectedRow[] = [
  row(1, 'a,"b ""c""",d'),
  row(7, '"two\nlines","x"', 'expected 3 fields, got 2'),
  row(9, '"crlf\r\n inside"'),
  row(12, Buffer.from([0x61, 0xff, 0xfe, 0x22, 0x0a, 0x22])),
  row(99, '""""'),
  { line: 120, offset: 5000, reason: 'record is 5000000 bytes, too large', raw: null, length: 5_000_000 },
];

/** A key with a space, a comma and quotes: its field in every row is `,"in/a b,""c"".csv"`. */
const KEY = 'in/a b,"c".csv';
const ENDING = rejectsRowEnding(KEY);

describe('LineRenumbering', () => {
  const relative = formatRejects(ROWS, KEY);
  const absolute = formatRejects(
    ROWS.map((r) => ({ ...r, line: r.line + 1000 })),
    KEY,
  );

  // Every place a piece can end: inside a line number, a doubled quote, a CRLF, the header, the last LF.
  it('adds to every line whatever the pieces it is given, copying every other byte', () => {
    for (let cut = 0; cut <= relative.length; cut++) {
      const renumbering = new LineRenumbering(1000, ENDING);
      const out = [...renumbering.push(relative.subarray(0, cut)), ...renumbering.push(relative.subarray(cut))];
      renumbering.end();
      expect(Buffer.concat(out).equals(absolute), `cut at ${cut}`).toBe(true);
    }
  });

  it('takes one byte at a time', () => {
    const renumbering = new LineRenumbering(1000, ENDING);
    const out = [...relative].flatMap((byte) => renumbering.push(Buffer.from([byte])));
    renumbering.end();
    expect(Buffer.concat(out).equals(absolute)).toBe(true);
  });

  it('leaves a file of only its header as it is', () => {
    expect(renumberRejects(formatRejects([], 'k'), 5, rejectsRowEnding('k')).toString()).toBe(
      'line,byte_offset,reason,record,object\n',
    );
  });

  it('fails when the file ends inside a row', () => {
    expect(() => renumberRejects(relative.subarray(0, relative.length - 1), 1, ENDING)).toThrow(/not complete/);
    expect(() => renumberRejects(relative.subarray(0, relative.indexOf('\n') + 2), 1, ENDING)).toThrow(/not complete/);
  });

  it('fails when a row does not start with a line number', () => {
    const body = Buffer.from('line,byte_offset,reason,record,object\n"x",1,"r","a","k"\n');
    expect(() => renumberRejects(body, 1, rejectsRowEnding('k'))).toThrow(/a line number expected/);
  });
});
