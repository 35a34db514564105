import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder: the nearest folder above a module that holds package.json. The same code runs
 * from its TypeScript source in a checkout (lib/, cli/local-run/), from the CLI bundle (dist/) and, installed
 * from npm, from the compiled construct (dist/construct/lib/), so a fixed `../` would be right for only one of
 * them. The workflow file and the handler bundles are found from here in every case.
 */
export function packageRoot(moduleUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}
