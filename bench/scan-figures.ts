import type { S3Client } from '@aws-sdk/client-s3';
import { sendGetObject } from '../lambdas/wiring/aws-io.js';
import { transitionTable } from '../lambdas/source/quote-dfa.js';
import { RecordScanner, scannerDialect } from '../lambdas/source/record-scanner.js';
import type { SourceObject } from '../lambdas/source/source-object.js';
import { readRange } from '../lambdas/source/s3-range-reader.js';
import { generateQuotedCsv } from '../test/fixtures/quoted-csv.js';

const MIB = 1024 * 1024;

/** A quoted CSV of about `mib` MiB: the quoted-field fixture repeated. */
export function quotedCsv(mib: number): Buffer {
  const unit = Buffer.from(generateQuotedCsv(2000).text.replace(/^\ufeff[^\n]*\n/, ''));
  return Buffer.concat(Array.from({ length: Math.ceil((mib * MIB) / unit.length) }, () => unit));
}

/** The boundary scanner alone, in memory, over 1 MiB buffers as a stream would give them: GB/s. */
export function scannerGbPerSecond(data: Buffer, rounds = 3): number {
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const scanner = new RecordScanner(scannerDialect({ delimiter: ',', quote: '"' }));
    const started = performance.now();
    let records = 0;
    for (let offset = 0; offset < data.length; offset += MIB) {
      scanner.feed(data.subarray(offset, offset + MIB));
      while (scanner.next() !== -1) records++;
    }
    const seconds = (performance.now() - started) / 1000;
    if (records === 0) throw new Error('scanner found no records');
    best = Math.max(best, data.length / seconds / 1e9);
  }
  return best;
}

/**
 * The scanner's quote-dense path before the block walk, kept here only to give the bench a same-run ratio: the
 * automaton's byte table, one dependent lookup per byte, over the same 1 MiB buffers, without the per-record
 * calls (its best case). GB/s.
 */
export function tableLoopGbPerSecond(data: Buffer, rounds = 3): number {
  const table = transitionTable({ delimiter: 0x2c, quote: 0x22 });
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    let records = 0;
    let state = 0;
    for (let offset = 0; offset < data.length; offset += MIB) {
      const buf = data.subarray(offset, offset + MIB);
      for (let i = 0; i < buf.length; i++) {
        state = table[(state << 8) | buf[i]];
        if (state > 3) {
          if ((state & 4) !== 0) records++;
          state &= 3;
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    if (records === 0) throw new Error('table loop found no records');
    best = Math.max(best, data.length / seconds / 1e9);
  }
  return best;
}

/** The boundary scanner over a quote-free TSV (quoting off: LF jumps), in memory, in 1 MiB buffers: GB/s. */
export function tsvGbPerSecond(mib = 64, rounds = 3): number {
  const unit = Buffer.from('ngram_abc\t2001\t123456\t789\n'.repeat(4096));
  const data = Buffer.concat(Array.from({ length: Math.ceil((mib * MIB) / unit.length) }, () => unit));
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const scanner = new RecordScanner(scannerDialect({ delimiter: '\t', quote: '' }));
    const started = performance.now();
    for (let offset = 0; offset < data.length; offset += MIB) {
      scanner.feed(data.subarray(offset, offset + MIB));
      while (scanner.next() !== -1);
    }
    best = Math.max(best, data.length / ((performance.now() - started) / 1000) / 1e9);
  }
  return best;
}

/** MB/s of a plain sequential read of the whole object through the same range GET helper. */
export async function plainReadMbPerSecond(s3: S3Client, source: SourceObject, size: number): Promise<number> {
  const send = sendGetObject(s3);
  const started = performance.now();
  let bytes = 0;
  for await (const buf of readRange(send, source, 0, size)) bytes += buf.length;
  return bytes / 1e6 / ((performance.now() - started) / 1000);
}
