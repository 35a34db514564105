import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundleScriptText, planBundleScript } from '../../../cli/local-run/bundle-script.js';

/** Runs `source` as bundle-script.ts makes it, with the real built-in modules: what its function returns. */
async function runAsScript(source: string): Promise<Record<string, unknown>> {
  const plan = await planBundleScript(source);
  if (!plan) throw new Error('no plan');
  const run = vm.runInThisContext(bundleScriptText(source, plan)) as (...args: unknown[]) => Promise<never>;
  const namespaces = Object.fromEntries(await Promise.all(plan.builtins.map(async (b) => [b, await import(b)])));
  return run(namespaces, (specifier: string) => import(specifier), { url: 'file:///bundle/index.js' });
}

describe('a bundle as a script', () => {
  it.each([
    // esbuild's shapes: named (renamed), namespace, default, default with named, bare; one export clause at the end.
    ['import{join as j,sep}from"node:path";export{j as join,sep};', { join: 'join', sep: 'string' }],
    ['import*as p from"node:path";const k=p.join;export{k as join};', { join: 'join' }],
    ['import p from"node:path";const k=p.join;export{k as join};', { join: 'join' }],
    [
      'import p,{sep as s}from"node:path";const k=p.join,t=s;export{k as join,t as sep};',
      { join: 'join', sep: 'string' },
    ],
    ['import"node:path";const x=1;export{x};', { x: 'number' }],
  ])('binds the imports of built-in modules as Node does: %s', async (source, expected) => {
    const exports = await runAsScript(source);
    expect(
      Object.fromEntries(Object.entries(exports).map(([k, v]) => [k, (v as () => void).name || typeof v])),
    ).toEqual(expected);
  });

  it('binds every import before the bundle runs, as an ES module does', async () => {
    const exports = await runAsScript('const early=j("a","b");import{join as j}from"node:path";export{early};');
    expect(exports).toEqual({ early: 'a/b' });
  });

  it('keeps every byte and position but the module syntax, which it replaces by as many characters', async () => {
    const source =
      'import{join as j}from"node:path";\nconst u=import.meta.url,s="import{x}from\\"node:fs\\"";\nexport{u,s};';
    const plan = (await planBundleScript(source))!;
    const lines = bundleScriptText(source, plan).split('\n');
    // The first line is the function's head; the bundle's lines follow, each as long as it was.
    expect(lines.slice(1, 4).map((line) => line.length)).toEqual(source.split('\n').map((line) => line.length));
    expect(lines[2]).toContain('"import{x}from\\"node:fs\\""'); // text in a string is not module syntax
    expect(await runAsScript(source)).toEqual({ u: 'file:///bundle/index.js', s: 'import{x}from"node:fs"' });
  });

  it('runs strict, as a module does, and resolves dynamic imports of built-ins', async () => {
    const exports = await runAsScript('function f(){return this}const h=()=>import("node:path");export{f,h};');
    const f = exports.f as () => unknown;
    expect(f()).toBeUndefined();
    expect(await (exports.h as () => Promise<{ sep: string }>)()).toHaveProperty('sep', '/');
  });

  it.each([
    ['an import of a package', 'import{parse}from"csv-parse";export{parse};'],
    ['a dynamic import of a package', 'const f=()=>import("csv-parse");export{f};'],
    ['a dynamic import of a computed name', 'const f=(m)=>import(m);export{f};'],
    ['export default', 'export default 1;'],
    ['an exported declaration', 'export const x=1;'],
    ['a re-export', 'export{join}from"node:path";'],
    ['a name the script takes as a parameter', 'const $s3ddbNs=1;export{$s3ddbNs};'],
  ])('leaves to Node a bundle with %s', async (_, source) => {
    expect(await planBundleScript(source)).toBeUndefined();
  });
});
