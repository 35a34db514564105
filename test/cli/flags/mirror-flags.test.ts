import { describe, expect, it } from 'vitest';
import { parseLocalCommand } from '../../../cli/commands/local.js';
import { parseStartCommand } from '../../../cli/commands/start.js';
import { buildRequest } from '../../../cli/flags/request-file.js';

const FLAGS = ['--mirror', '--scope-prefix', 'PRODUCT#', '--max-delete-percent', '2.5'];

describe("--mirror, --scope-prefix, --max-delete-percent (the request's mirror, scope, maxDeletePercent)", () => {
  it('become the request fields (local)', () => {
    expect(parseLocalCommand(['f.tsv', '--table', 't', ...FLAGS]).request).toMatchObject({
      mirror: true,
      scope: { partitionKeyPrefix: 'PRODUCT#' },
      maxDeletePercent: 2.5,
    });
  });

  it('reach the request validator (start), which refuses a mirror without mode sync, naming the field', () => {
    // --mode takes sync once the sync mode is in the table of modes (issue 36, sync); until then every mirror stops here.
    const start = parseStartCommand(['s3://b/k.csv', '--table', 't', ...FLAGS]);
    expect(() => buildRequest(start.request, {}, { bucket: 'b', key: 'k.csv' })).toThrow(
      'mirror: only with "mode": "sync", got mode "put"',
    );
  });

  it('leave the request without the fields when not given (the default 10% is the validator’s)', () => {
    const request = parseLocalCommand(['f.tsv', '--table', 't']).request;
    for (const field of ['mirror', 'scope', 'maxDeletePercent']) expect(request).not.toHaveProperty(field);
  });

  it('fails when --max-delete-percent is not a percentage, naming the flag', () => {
    expect(() => parseLocalCommand(['f.tsv', '--table', 't', '--mirror', '--max-delete-percent', '150'])).toThrow(
      '--max-delete-percent',
    );
  });
});
