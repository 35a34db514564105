import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  csvParseOptions,
  isBlankRecord,
  parseRecords,
  type RawRecord,
} from '../../../../lambdas/formats/csv/csv-records.js';
import { seededRandom } from '../../../fixtures/random.js';

const CSV = csvParseOptions({ delimiter: ',', quote: '"' });

/** Lays records end to end as the scanner would hand them over: offsets and lines follow from the bytes. */
function recordsOf(...raws: Array<string | Buffer>): RawRecord[] {
  let offset = 0;
  let line = 1;
  return raws.map((text) => {
    const raw = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    const record = { raw, offset, line };
    offset += raw.length;
    line += raw.filter((b) => b === 0x0a).length;
    return record;
  });
}

/** What each record became: its fields, or `{ error }`. */
const outcomes = (records: RawRecord[], options = CSV) =>
  parseRecords(records, options).map((parsed) => ('error' in parsed ? { error: parsed.error } : parsed.fields));

describe('parseRecords reads as csv-parse does', () => {
  // Blocks without quotes are split directly, the rest go to csv-parse: both must give csv-parse's fields.
  const pick = seededRandom(11);
  const ALPHABET = ['a', 'Z', '7', ' ', 'é', '𝄞', ',', '\t', ';', '"', "'", '\r', '', '-'];
  const field = (allowed: string[]) =>
    Array.from({ length: Math.floor(pick() * 5) }, () => allowed[Math.floor(pick() * allowed.length)]).join('');
  /** Records of 1-4 fields; `special` characters (quotes, CR) only in the last record's last field, if at all. */
  function block(delimiter: string, special: string[], lastNewline: boolean) {
    const plain = ALPHABET.filter((c) => c !== delimiter && !['"', "'", '\r'].includes(c));
    const count = 1 + Math.floor(pick() * 6);
    const raws = Array.from({ length: count }, (_, r) => {
      const fields = Array.from({ length: 1 + Math.floor(pick() * 4) }, () => field(plain));
      if (r === count - 1 && special.length > 0) fields.push(field([...plain, ...special]) + special[0]);
      return fields.join(delimiter) + (r < count - 1 || lastNewline ? '\n' : '');
    });
    return recordsOf(...raws.filter((raw) => raw !== '\n' && raw !== '')); // the scanner drops blank lines
  }
  const dialects = [
    { delimiter: ',', quote: '"' },
    { delimiter: '\t', quote: '"' },
    { delimiter: ';', quote: "'" },
    { delimiter: '\t', quote: '' },
  ];

  it.each(dialects)('with delimiter $delimiter and quote $quote, on 300 random blocks', (dialect) => {
    const options = csvParseOptions(dialect);
    for (let i = 0; i < 300; i++) {
      const special = [[], [], ['"'], ["'"], ['\r']][i % 5];
      const records = block(dialect.delimiter, special, i % 3 !== 0);
      if (records.length === 0) continue;
      let whole: string[][];
      try {
        whole = parse(Buffer.concat(records.map((r) => r.raw)), options) as string[][];
      } catch {
        continue; // an unclosed quote: the record-by-record path's case, tested above
      }
      if (whole.length !== records.length) continue; // a quote made records join: the same
      expect(outcomes(records, options), JSON.stringify(records.map((r) => r.raw.toString()))).toEqual(whole);
    }
  });
});

describe('csvParseOptions', () => {
  it('passes the delimiter and quote, and turns an empty quote into no quoting', () => {
    expect(CSV).toMatchObject({ delimiter: ',', quote: '"', relax_quotes: true, relax_column_count: true, bom: false });
    expect(csvParseOptions({ delimiter: '\t', quote: '' })).toMatchObject({ delimiter: '\t', quote: false });
  });
});

describe('parseRecords', () => {
  it('parses a block of good records, each paired with its own record', () => {
    const records = recordsOf('id,name\n', '1,alpha\n', '2,"beta"\n', '3,gamma');
    const parsed = parseRecords(records, CSV);
    expect(parsed.map((p) => p.record)).toEqual(records);
    expect(outcomes(records)).toEqual([
      ['id', 'name'],
      ['1', 'alpha'],
      ['2', 'beta'],
      ['3', 'gamma'],
    ]);
  });

  it('returns nothing for no records', () => {
    expect(parseRecords([], CSV)).toEqual([]);
  });

  it('rejects only the record csv-parse cannot read and keeps every good one around it', () => {
    // A quote left open (as in the last record of a file that ends inside quotes) makes csv-parse throw
    // for the whole block; the module then parses record by record.
    const records = recordsOf('a,1\n', 'b,2\n', 'c,"unclosed\n', 'd,4\n', 'e,5\n');
    const result = outcomes(records);
    const notClosed = { error: expect.stringMatching(/^malformed record: Quote Not Closed/) };
    expect(result).toEqual([['a', '1'], ['b', '2'], notClosed, ['d', '4'], ['e', '5']]);
    // csv-parse counts lines inside the one record it saw; the reject names the real line, so it is cut.
    expect(JSON.stringify(result[2])).not.toMatch(/line \d/);
  });

  it('reads a quote after a closing quote as literal text (relax_quotes), not as an error', () => {
    // csv-parse 7 with relax_quotes keeps `"z"w` as it is; the row is not rejected.
    expect(outcomes(recordsOf('p,1\n', 'q,"z"w\n', 'r,3\n'))).toEqual([
      ['p', '1'],
      ['q', '"z"w'],
      ['r', '3'],
    ]);
  });

  it('rejects invalid UTF-8 naming the byte offset in the object, and keeps the other records', () => {
    // Record 2 starts at byte 4; 'é' is 2 bytes and ',' 1, so the bad byte 0xC3 (followed by '(' not a
    // continuation byte) is at 4 + 3 = 7.
    const bad = Buffer.from([0xc3, 0xa9, 0x2c, 0xc3, 0x28, 0x0a]);
    const result = outcomes(recordsOf('a,b\n', bad, 'c,d\n'));
    expect(result).toEqual([['a', 'b'], { error: 'invalid UTF-8 at byte 7' }, ['c', 'd']]);
  });

  it('names the first byte of a multi-byte character cut short', () => {
    // '東' is E6 9D B1; the record holds only E6 9D then LF. Bytes 0-1 are 'x,', so the bad one is at 2.
    const cut = Buffer.from([0x78, 0x2c, 0xe6, 0x9d, 0x0a]);
    expect(outcomes(recordsOf(cut))).toEqual([{ error: 'invalid UTF-8 at byte 2' }]);
  });

  it('drops the CR of CRLF records', () => {
    expect(outcomes(recordsOf('a,b\r\n', 'c,"d"\r\n'))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads quoted commas, doubled quotes and newlines, and keeps a quote inside an unquoted field', () => {
    const records = recordsOf('"x,y","say ""hi""","l1\nl2\r\nl3"\n', 'ab"c,"",é東京😀\n');
    expect(outcomes(records)).toEqual([
      ['x,y', 'say "hi"', 'l1\nl2\r\nl3'],
      ['ab"c', '', 'é東京😀'],
    ]);
  });

  it('keeps fields of every count: the row mapper judges the count', () => {
    expect(outcomes(recordsOf('a,b\n', 'a,b,c\n', 'a\n'))).toEqual([['a', 'b'], ['a', 'b', 'c'], ['a']]);
  });

  it('treats quotes as data when quoting is off', () => {
    const tsv = csvParseOptions({ delimiter: '\t', quote: '' });
    expect(outcomes(recordsOf('"a\tb"\n', 'c""\t"\n'), tsv)).toEqual([
      ['"a', 'b"'],
      ['c""', '"'],
    ]);
  });
});

describe.each(
  [
    // Nothing but a line ending: a blank line, skipped.
    { raw: '', blank: true },
    { raw: '\n', blank: true },
    { raw: '\r\n', blank: true },
    // Anything else is a record, even if its fields are empty or white.
    { raw: ' \n', blank: false },
    { raw: ',\n', blank: false },
    { raw: '""\n', blank: false },
    { raw: '\r', blank: false },
    { raw: 'a', blank: false },
  ].map((row) => ({ ...row, shown: JSON.stringify(row.raw) })),
)('isBlankRecord($shown)', ({ raw, blank }) => {
  it(`is ${blank}`, () => {
    expect(isBlankRecord(Buffer.from(raw))).toBe(blank);
  });
});
