import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_MD, apiMarkdown } from '../../bin/docs-api.js';

describe('API.md', () => {
  it('is what jsii-docgen makes of the assembly just built (run npm run docs:api and commit it when this fails)', async () => {
    const checkedIn = await readFile(API_MD, 'utf8');
    expect(checkedIn).toBe(await apiMarkdown());
    // It documents the construct's surface, as Python and Java see it.
    for (const name of ['ImportPipeline', 'ImportPipelineProps', 'PipelineWatch', 'ImportSource', 'ImportSettings']) {
      expect(checkedIn, name).toContain(`### ${name} `);
    }
  });
});
