import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript entry (bin/ runs it before any bundle is built)
import { noteNodeVersion } from '../../bin/node-version.mjs';

type Note = (version: string, env: Record<string, string | undefined>, write: (line: string) => void) => void;
const note = noteNodeVersion as Note;

describe('the Node version note', () => {
  it.each([
    // Node 20: one line of ours, and the SDK's 7-line warning turned off.
    ['v20.19.0', 1, 'true'],
    // Node 22 and later: nothing to say, the SDK's check left alone.
    ['v22.12.0', 0, undefined],
    ['v24.1.0', 0, undefined],
  ])('on %s writes %i line(s)', (version, lines, disabled) => {
    const written: string[] = [];
    const env: Record<string, string | undefined> = {};
    note(version, env, (line) => written.push(line));
    expect(written).toHaveLength(lines);
    expect(env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe(disabled);
    if (lines) expect(written[0]).toMatch(/^note: Node v20\.19\.0 .* need Node 22 .*\n$/);
  });

  it('says nothing when the user turned the SDK warning off already', () => {
    const written: string[] = [];
    note('v20.19.0', { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' }, (line) => written.push(line));
    expect(written).toEqual([]);
  });
});
