import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referencePages } from '../../bin/docs-pages.js';

/**
 * docs/reference/ is generated from the declarations (bin/docs.ts): a request field, a prop, a flag or a grant that
 * changes without `npm run docs` fails here, so the reference never drifts from the code.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REFERENCE = join(ROOT, 'docs/reference');
const pages = referencePages(ROOT);

describe('docs/reference', () => {
  it.each(Object.keys(pages))('%s is what `npm run docs` writes', (name) => {
    const checkedIn = readFileSync(join(REFERENCE, name), 'utf8');
    expect(checkedIn, `docs/reference/${name} is stale: run \`npm run docs\` and commit it`).toBe(pages[name]);
  });

  it('holds no page the generator no longer writes', () => {
    const written = Object.keys(pages).sort();
    expect(readdirSync(REFERENCE).sort()).toEqual(written);
  });

  it('documents every ImportRequest field, inherited ones included, with its default', () => {
    // The request's source fields come from ImportRequest itself, the rest from ImportOptions (extends).
    for (const field of ['bucket', 'key', 'prefix', 'table', 'format', 'types', 'mode', 'dryRun']) {
      expect(pages['request.md']).toContain(`\`${field}\``);
    }
    expect(pages['request.md']).toMatch(/\| `chunkMiB` \| `number` \| 64 \|/);
  });

  it('lists the grants from the template, DynamoDB write actions included', () => {
    expect(pages['grants.md']).toContain('## Pipeline/ImportFunctionRole');
    expect(pages['grants.md']).toContain('`dynamodb:BatchWriteItem`');
    // `*` only for actions without resource-level permissions (GetAccountSettings, log delivery, X-Ray).
    const onStar = pages['grants.md'].split('\n').filter((row) => row.endsWith('| `*` |'));
    expect(onStar.filter((row) => /`(s3|dynamodb|kms):/.test(row))).toEqual([]);
  });
});
