import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handwrittenPages } from './docs-handwritten.js';
import { referencePages } from './docs-pages.js';

/**
 * `npm run docs`: writes docs/reference/ from the declarations (bin/docs-pages.ts) and fills the generated regions of
 * the hand-written pages (bin/docs-handwritten.ts: the README's commands and examples, the workflow diagram, the
 * layers). test/docs/ fails when a checked-in page differs from what this writes, so run it after changing a request
 * field, a prop, a flag, a grant, a command, the workflow, a layer or an example, and commit the pages.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REFERENCE_DIR = 'docs/reference';

await mkdir(join(ROOT, REFERENCE_DIR), { recursive: true });
for (const [name, text] of Object.entries(referencePages(ROOT))) {
  await writeFile(join(ROOT, REFERENCE_DIR, name), text);
  process.stderr.write(`wrote ${REFERENCE_DIR}/${name}\n`);
}
for (const [page, text] of Object.entries(handwrittenPages(ROOT))) {
  await writeFile(join(ROOT, page), text);
  process.stderr.write(`filled the generated regions of ${page}\n`);
}
