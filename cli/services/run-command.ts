import { spawn } from 'node:child_process';
import { OutputTail } from './output-tail.js';

/** How often a long build says it is still alive, so CI logs do not look hung. */
const HEARTBEAT_MS = 30_000;

/** Options for {@link runCommand}. */
export interface RunCommandOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Receives a "still running" line every 30 s, labelled with `label`. @default - silent */
  readonly log?: (line: string) => void;
  /** Name used in heartbeat lines and errors. @default - the command */
  readonly label?: string;
  /** Keep the command's standard output and resolve with it. @default false */
  readonly capture?: boolean;
}

/**
 * Runs a one-shot tool (python3 -m venv, pip) to completion with stdin closed; resolves with its standard output when
 * `capture` is set (else ''). Rejects with the tail of its output when it exits non-zero or cannot be started.
 */
export function runCommand(command: string, args: readonly string[], options: RunCommandOptions = {}): Promise<string> {
  const label = options.label ?? command;
  const tail = new OutputTail();
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    if (options.capture) child.stdout.on('data', (chunk: string | Buffer) => (stdout += String(chunk)));
    tail.follow(child.stdout);
    tail.follow(child.stderr);
    const heartbeat = setInterval(() => {
      options.log?.(`${label}: still running (${Math.round((Date.now() - started) / 1000)} s)…`);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearInterval(heartbeat);
      const hint = error.code === 'ENOENT' ? ` (is ${command} installed and on PATH?)` : '';
      reject(new Error(`${label}: cannot run ${command}${hint}: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearInterval(heartbeat);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${label}: ${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail}`));
    });
  });
}
