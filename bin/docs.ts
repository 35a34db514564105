import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referencePages } from './docs-pages.js';

/**
 * `npm run docs`: writes docs/reference/ from the declarations (bin/docs-pages.ts). test/docs/reference.test.ts fails
 * when a checked-in page differs from what this writes, so run it after changing a request field, a prop, a flag or a
 * grant, and commit the pages.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REFERENCE_DIR = 'docs/reference';

await mkdir(join(ROOT, REFERENCE_DIR), { recursive: true });
for (const [name, text] of Object.entries(referencePages(ROOT))) {
  await writeFile(join(ROOT, REFERENCE_DIR, name), text);
  process.stderr.write(`wrote ${REFERENCE_DIR}/${name}\n`);
}
