import { S3ServiceException, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import type { Chunk } from '../../../lambdas/contract/workflow-payloads.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { putText, scanAll } from '../harness.js';
import { expectTableMatches, NGRAM_KEY, ngramImport, runWithEvents } from './fixture.js';
import { faultGetObjects, removeFaults } from './inject.js';

/** A connection reset cuts the body this far in: mid-row, and mid-character where a multi-byte one sits. */
const RESET_AFTER_BYTES = 50_001;

/** What S3 answers when asked to slow down, as the SDK's deserializer builds it. */
function slowDown(): S3ServiceException {
  return new S3ServiceException({
    name: 'SlowDown',
    $fault: 'server',
    message: 'Please reduce your request rate.',
    $metadata: { httpStatusCode: 503 },
  });
}

/** Bodies `resetAfter` cut (a body shorter than its cut point ends whole). */
let resetsMade = 0;

/** The body as it arrives until `bytes`, then the socket reset by the peer. */
function resetAfter(body: Readable, bytes: number): Readable {
  async function* upToReset() {
    let left = bytes;
    for await (const piece of body as AsyncIterable<Buffer>) {
      if (piece.length >= left) {
        yield piece.subarray(0, left);
        body.destroy();
        resetsMade++;
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
      }
      left -= piece.length;
      yield piece;
    }
  }
  return Readable.from(upToReset(), { objectMode: false });
}

/**
 * True from the moment preflight has cut every chunk: later GETs are the import's range reads. `isLaneRead` tells a
 * lane's read of its own range ([its first record, chunk end), starting at the chunk's start for chunk 0 and within
 * its first KiB for the others) from the reads around it: a look-back before the start, or a read past the end for the
 * last record, which the lane may drop once it has what it needs, so a reset there would need no resume.
 */
function importPhase() {
  let chunks: readonly Chunk[] = [];
  const phase = {
    started: false,
    onEvent: (e: RunnerEvent) => {
      if (e.type !== 'preflight' || !e.scanComplete) return;
      phase.started = true;
      chunks = e.chunkList;
    },
    isLaneRead: (range: string) => {
      const [start, last] = /^bytes=(\d+)-(\d+)/.exec(range)!.slice(1).map(Number);
      return chunks.some(
        (c, i) => last + 1 === c.end && (i === 0 ? start === c.start : start > c.start && start <= c.start + 1024),
      );
    },
  };
  return phase;
}

describe('S3 reads that fail while chunks import', () => {
  afterEach(removeFaults);

  it('recovers from 503 SlowDown and from connections reset mid-body, rows neither lost nor doubled', async () => {
    // 20,000 rows (~650 KB) in 0.2 MiB chunks: 4 chunks, 2 at once.
    const { bucket, table, request, rows } = await ngramImport(20_000, 0.2);
    const phase = importPhase();
    // The first range read gets SlowDown 3 times: the SDK's 3 attempts give up, readRange retries it.
    let slowRange: string | undefined;
    let slowDownsLeft = 3;
    let resetsLeft = 2;
    const ranges: string[] = [];
    // Inside the SDK's retry (finalizeRequest), where a server's 503 would arrive.
    faultGetObjects(bucket, 'finalizeRequest', async (input, send) => {
      if (!phase.started) return send(input);
      ranges.push(input.Range!);
      slowRange ??= input.Range;
      if (slowDownsLeft > 0 && input.Range === slowRange) {
        slowDownsLeft--;
        throw slowDown();
      }
      const output = await send(input);
      if (resetsLeft === 0 || !phase.isLaneRead(input.Range!)) return output;
      resetsLeft--;
      return {
        ...output,
        Body: resetAfter(output.Body as Readable, RESET_AFTER_BYTES) as GetObjectCommandOutput['Body'],
      };
    });

    const { summary, events } = await runWithEvents(request, { maxConcurrency: 2, onEvent: phase.onEvent });

    expect({ slowDownsLeft, resetsLeft }).toEqual({ slowDownsLeft: 0, resetsLeft: 0 });
    expect(ranges.filter((range) => range === slowRange).length).toBeGreaterThanOrEqual(4);
    // Each reset body is resumed by a GET from the byte it stopped at, to the same end. (Lanes also read before
    // and past their ranges to find their records: those GETs are fresh, not resumed.)
    const parsed = ranges.map((range) => /^bytes=(\d+)-(\d+)/.exec(range)!.slice(1).map(Number));
    const resumed = parsed.filter(([start, end], i) =>
      parsed.slice(0, i).some(([s0, e0]) => e0 === end && start - s0 === RESET_AFTER_BYTES),
    );
    expect(resetsMade).toBeGreaterThanOrEqual(1);
    expect(resumed).toHaveLength(resetsMade);
    expect(events.length).toBeGreaterThan(0);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  });

  it('fails with SourceObjectChangedError naming the object when it is replaced after preflight', async () => {
    // 6,000 rows (~190 KB) in 0.05 MiB chunks: 4 chunks. The new version has the same keys, other counts.
    const { bucket, table, request, rows } = await ngramImport(6000, 0.05);
    const phase = importPhase();
    let replaced = false;
    faultGetObjects(bucket, 'initialize', async (input, send) => {
      if (phase.started && !replaced) {
        replaced = true;
        await putText(bucket, NGRAM_KEY, generateNgrams(6000, { seed: 2 }).text);
      }
      return send(input);
    });

    const error = await runWithEvents(request, { maxConcurrency: 2, onEvent: phase.onEvent }).catch((e: Error) => e);

    expect(replaced).toBe(true);
    expect(error).toMatchObject({ name: 'SourceObjectChangedError' });
    expect((error as Error).message).toContain(`s3://${bucket}/${NGRAM_KEY}`);
    // Nothing of the new version landed: every item there is the old file's row.
    const byKey = new Map(rows.map((row) => [`${row.ngram}|${row.year}`, row]));
    for (const item of await scanAll(table)) {
      expect(item.match_count.N).toBe(String(byKey.get(`${item.ngram.S}|${item.year.N}`)!.match_count));
    }
  });
});
