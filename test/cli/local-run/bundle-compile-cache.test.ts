import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCachedBundle } from '../../../cli/local-run/bundle-compile-cache.js';

/** A temporary bundle file (`<dir>/demo/index.js`) and an empty cache dir beside it. */
async function scratch(source: string) {
  const root = await mkdtemp(join(tmpdir(), 'compile-cache-'));
  const bundle = join(root, 'demo', 'index.js');
  await mkdir(join(root, 'demo'));
  await writeFile(bundle, source);
  return { bundle, cache: join(root, 'cache') };
}

const BUNDLE = 'import{join as j}from"node:path";const answer=()=>j("a","b");export{answer};';

describe('the handler bundles compile cache', () => {
  it('writes a code cache and its plan on the first load, and uses them as they are on the next', async () => {
    const { bundle, cache } = await scratch(BUNDLE);
    const first = (await loadCachedBundle(bundle, cache))!;
    expect((first.exports.answer as () => string)()).toBe('a/b');
    expect(existsSync(cache)).toBe(false); // nothing is written before the run's end
    first.saveCache();
    const files = (await readdir(cache)).sort();
    expect(files).toEqual([expect.stringMatching(/^demo-[0-9a-f]{32}\.bin$/), expect.stringMatching(/\.json$/)]);

    const second = (await loadCachedBundle(bundle, cache))!;
    expect((second.exports.answer as () => string)()).toBe('a/b');
    await rm(cache, { recursive: true });
    second.saveCache(); // read and accepted: nothing to write
    expect(existsSync(cache)).toBe(false);
  });

  it('never uses the cache of other bytes: a changed bundle gets its own, and the old one is dropped', async () => {
    const { bundle, cache } = await scratch(BUNDLE);
    (await loadCachedBundle(bundle, cache))!.saveCache();
    const before = await readdir(cache);
    await writeFile(bundle, BUNDLE.replace('"a","b"', '"c","d"'));

    const changed = (await loadCachedBundle(bundle, cache))!;
    expect((changed.exports.answer as () => string)()).toBe('c/d');
    changed.saveCache();
    const after = await readdir(cache);
    expect(after).toHaveLength(2);
    expect(after.filter((file) => before.includes(file))).toEqual([]);
  });

  it('loads a bundle whose code cache V8 rejects, and writes a good one', async () => {
    const { bundle, cache } = await scratch(BUNDLE);
    (await loadCachedBundle(bundle, cache))!.saveCache();
    const code = (await readdir(cache)).find((file) => file.endsWith('.bin'))!;
    await writeFile(join(cache, code), 'not a code cache');

    const loaded = (await loadCachedBundle(bundle, cache))!;
    expect((loaded.exports.answer as () => string)()).toBe('a/b');
    loaded.saveCache();
    const again = (await loadCachedBundle(bundle, cache))!;
    await rm(cache, { recursive: true });
    again.saveCache();
    expect(existsSync(cache)).toBe(false); // the rewritten cache was accepted
  });

  it('leaves a bundle it cannot make a script of to Node', async () => {
    const { bundle, cache } = await scratch('export default 1;');
    expect(await loadCachedBundle(bundle, cache)).toBeUndefined();
  });
});
