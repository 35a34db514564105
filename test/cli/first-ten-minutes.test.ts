import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runOnTerminal, screenLines } from '../support/terminal.js';

const SAMPLE = fileURLToPath(new URL('../../sample/googlebooks-1gram-sample.tsv', import.meta.url));
/** The engine's Node notice is the same on every run and not what these tests read. */
const QUIET = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

/** The screen without the one-time Node version note, which depends on the machine's Node. */
const read = (screen: string) => screenLines(screen).filter((line) => !line.startsWith('note: Node v'));

/** A fresh table name per run: the test run's engine is shared by every file. */
const fresh = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

// What a newcomer sees on a terminal (stderr a TTY: progress rewrites its line) in the first ten minutes, issue 35.
describe('the first ten minutes, on a terminal', () => {
  it("the README's first command: one progress line rewritten in place, then the summary, exit 0", async () => {
    const table = fresh('ngrams');
    const args = ['local', SAMPLE, '--table', table, '--pk', 'ngram', '--sk', 'year:N', '--create-table'];
    const run = await runOnTerminal([...args, '--types', 'match_count=N,volume_count=N'], { env: QUIET });
    expect(run.code, run.screen).toBe(0);
    // The progress line is rewritten in place (erase to the end of the line), not printed anew each time.
    expect(run.screen).toContain('\u001b[K');
    const lines = read(run.screen);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^SUCCEEDED: 1200 rows, 1200 written, 0 skipped, 0 rejected, 1 chunks into ${table} \\(put\\) in `),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^execution [0-9a-f-]{36} \(change it while it runs: /));
    // No raw JSON log line, no stack trace, no `scanning` phase.
    expect(lines.filter((line) => /^\s*[{[]|^\s+at |scanning/.test(line))).toEqual([]);
  });

  it('fails when the table is missing: one failure line, then the --create-table hint, nothing uploaded', async () => {
    const table = fresh('missing');
    const run = await runOnTerminal(['local', SAMPLE, '--table', table], { env: QUIET });
    expect(run.code).toBe(1);
    const lines = read(run.screen).filter((line) => !line.startsWith('using the engine'));
    expect(lines.slice(-2)).toEqual([
      expect.stringMatching(new RegExp(`^import failed: \\w+: .*${table}.* does not exist`)),
      'give --create-table --pk NAME[:S|N|B] (and --sk NAME[:S|N|B] for a composite key) to create it, on demand',
    ]);
    expect(lines.some((line) => line.startsWith('execution '))).toBe(false); // it stopped before the import
  });

  it('--types name=N on text: the summary, the first reasons under the rejects line, exit 2', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'wrong-type-'));
    await writeFile(join(cwd, 'people.csv'), 'id,name\n1,ada\n2,grace\n3,7\n');
    const table = fresh('people');
    const args = ['local', 'people.csv', '--table', table, '--pk', 'id', '--create-table', '--types', 'name=N'];
    const run = await runOnTerminal(args, { cwd, env: QUIET });
    expect(run.code, run.screen).toBe(2);
    const lines = read(run.screen);
    const at = lines.findIndex((line) => /^2 rejected rows: \d+ files in /.test(line));
    expect(at, run.screen).toBeGreaterThan(-1);
    // One reason per kind: "ada" and "grace" are the same mistake, shown once.
    expect(lines[at + 1]).toMatch(/^ {2}imports\/\S*people\.csv line 2: column "name": not a number: "ada"$/);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^SUCCEEDED_WITH_REJECTS: 3 rows, 1 written, 0 skipped, 2 rejected`)),
    );
  });
});
