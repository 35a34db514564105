import { chmod, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineRequirementError, ensureMinistack } from '../../../cli/services/index.js';

/** An interpreter that answers `--version` as Python 2 does (on stderr) and fails any `-c` probe, as 2.x does ours. */
async function fakePython(dir: string, version: string): Promise<string> {
  const path = join(dir, 'python-old');
  await writeFile(
    path,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "${version}" >&2; exit 0; fi\n` +
      'echo "ImportError: No module named util" >&2; exit 1\n',
  );
  await chmod(path, 0o755);
  return path;
}

describe('the engine requirement error', () => {
  it('fails naming the version the Python reports, when it is too old to run the probe', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'old-python-'));
    const python = await fakePython(dir, 'Python 2.7.18');
    const cache = join(dir, 'cache');
    const outcome = await ensureMinistack(cache, () => undefined, python).catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(EngineRequirementError);
    expect((outcome as Error).message).toBe(
      `the local engine (ministack) needs Python 3.10+; ${python} is Python 2.7.18. ` +
        'Install a newer python3 (with venv), or point S3DDB_PYTHON at one.',
    );
    expect(await readdir(dir)).toEqual(['python-old']); // nothing installed
  });
});
