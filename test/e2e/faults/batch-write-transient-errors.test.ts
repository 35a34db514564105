import { afterEach, describe, expect, it } from 'vitest';
import { expectTableMatches, ngramImport, runWithEvents } from './fixture.js';
import { faultBatchWrites, faultWiring, removeFaults } from './inject.js';
import {
  clockSkewRejection,
  eaiAgain,
  ehostunreach,
  enetunreach,
  enotfound,
  outsideSigV4Window,
  replicatedWriteConflict,
  tooManyRequests,
} from './transient-errors.js';

/** Every FAULT_EVERY-th BatchWriteItem fails, FAULTS of them in all: each chunk's writer meets some. */
const FAULT_EVERY = 3;
const FAULTS = 6;
/** How far ahead of ours the skewed server's clock is: past SigV4's 5 minutes, so every request is refused. */
const SERVER_AHEAD_MS = 15 * 60_000;

/** The handlers' DynamoDB client, whose clock offset DynamoDbWriteTransport signs with and corrects. */
const clock = () => faultWiring().dynamodb.config;

describe('an import whose BatchWriteItem requests meet the errors the SDK retries', () => {
  afterEach(() => {
    removeFaults();
    clock().systemClockOffset = 0; // the next test starts from the local clock
  });

  it.each([
    ['EAI_AGAIN (a DNS lookup timed out)', eaiAgain],
    ['ENOTFOUND (DNS said no such name)', enotfound],
    ['EHOSTUNREACH (no route to the host)', ehostunreach],
    ['ENETUNREACH (no route to the network)', enetunreach],
    ['an HTTP 429 reply', tooManyRequests],
    ['ReplicatedWriteConflictException (a global table written in another Region)', replicatedWriteConflict],
  ])('ends identical to the file when some requests fail with %s', async (_, fault) => {
    // 2,000 rows (~55 KB) in 0.02 MiB chunks: 3 chunks, 80 requests.
    const { table, request, rows } = await ngramImport(2000, 0.02);
    let calls = 0;
    let injected = 0;
    faultBatchWrites(table, 'initialize', async (input, send) => {
      if (++calls % FAULT_EVERY === 1 && injected < FAULTS) {
        injected++;
        throw fault();
      }
      return send(input);
    });

    const { summary } = await runWithEvents(request, { maxConcurrency: 2 });

    expect(injected).toBe(FAULTS);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  });

  it('ends identical to the file when the server clock is 15 minutes ahead: refused, then signed with its time', async () => {
    const { table, request, rows } = await ngramImport(2000, 0.02);
    const tally = { refused: 0, acceptedOnServerTime: 0 };
    // DynamoDB's SigV4 check, on a server whose clock is ahead: a request signed at our clock plus the offset
    // DynamoDbWriteTransport signs with (the DynamoDB client's systemClockOffset) is refused with "Signature
    // expired" and the server's Date, until the client has taken the server's time from such a reply.
    faultBatchWrites(table, 'initialize', async (input, send) => {
      const serverMs = Date.now() + SERVER_AHEAD_MS;
      const signedAtMs = Date.now() + clock().systemClockOffset;
      if (outsideSigV4Window(signedAtMs, serverMs)) {
        tally.refused++;
        throw clockSkewRejection(signedAtMs, serverMs);
      }
      tally.acceptedOnServerTime++;
      return send(input);
    });

    const { summary } = await runWithEvents(request, { maxConcurrency: 2 });

    // Refused at least once ("Signature expired"), then every request signed with the corrected clock.
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.acceptedOnServerTime).toBeGreaterThanOrEqual(2000 / 25);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  });
});
