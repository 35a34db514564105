import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import type { ImportLedger, LiveSettings } from '../../lambdas/admission/ledger.js';
import { runningDir } from '../local-run/running-registry.js';
import { EXIT_OK, type Output } from '../output/summary.js';
import type { LiveAction, LiveCommand } from './live-args.js';
import type { LedgerPlace } from './live-ledgers.js';
import { CliError } from '../output/cli-error.js';

/** No running import of that name holds lanes in any ledger looked in. Exit code 1. */
export class NoRunningImportError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'NoRunningImportError';
  }
}

/**
 * `s3-ddb-import rate | pause | resume`: changes the import's live settings in the first ledger that holds it and
 * prints them (`--json`: the settings as one object). The change is one conditional UpdateItem per ledger, so an
 * import that ends meanwhile is never written back into the ledger.
 */
export async function runLiveCommand(command: LiveCommand, places: LedgerPlace[], output: Output): Promise<number> {
  const settings = await changeFirst(command, places);
  if (!settings) throw new NoRunningImportError(await notRunningMessage(command.execution, places));
  output.out(command.json ? JSON.stringify(settings) : describeChange(command.action, settings));
  return EXIT_OK;
}

async function changeFirst(command: LiveCommand, places: LedgerPlace[]): Promise<LiveSettings | null> {
  for (const place of places) {
    try {
      const settings = await change(place.ledger, command.execution, command.action);
      if (settings) return settings;
    } catch (error) {
      if (!place.local || !unreachable(error as Error)) throw error;
    }
  }
  return null;
}

function change(ledger: ImportLedger, execution: string, action: LiveAction): Promise<LiveSettings | null> {
  if (action.kind === 'rate') return ledger.setRate(execution, action.itemsPerSecond);
  return ledger.setPaused(execution, action.kind === 'pause');
}

/**
 * A local process that stops as we ask (its engine refuses or times out), or one whose ledger table does
 * not exist yet (no import of it has been admitted): nothing of it to change.
 */
function unreachable(error: Error & { code?: string }): boolean {
  return (
    error instanceof ResourceNotFoundException ||
    // the SDK's HTTP handler gives a plain Error named TimeoutError (no class to match)
    error.name === 'TimeoutError' ||
    ['ECONNREFUSED', 'ECONNRESET'].includes(error.code ?? '')
  );
}

/** The line a person reads: what the lanes do now. */
export function describeChange(action: LiveAction, s: LiveSettings): string {
  const lanes = `${s.lanes} lanes into ${s.table}`;
  const rate = s.maxWriteRate > 0 ? `at most ${s.maxWriteRate} items/s` : 'uncapped';
  switch (action.kind) {
    case 'rate': {
      const paused = s.paused ? `; paused: s3-ddb-import resume ${s.execution} to write again` : '';
      return `${s.execution}: ${rate} (${lanes} follow within about 5 s${paused})`;
    }
    case 'pause':
      return (
        `${s.execution}: paused (${lanes} stop at their next record boundary and hold their checkpoints; ` +
        `s3-ddb-import resume ${s.execution} goes on)`
      );
    case 'resume':
      return `${s.execution}: resumed, ${rate} (${lanes} go on from their checkpoints at their next ask, within 5 minutes)`;
  }
}

/** Names the execution, says where it was looked for, and lists the imports that do hold lanes there. */
async function notRunningMessage(execution: string, places: LedgerPlace[]): Promise<string> {
  if (places.length === 0)
    return (
      `no running import named ${JSON.stringify(execution)}: no \`local\` or \`local watch\` runs on this machine ` +
      `(none is registered in ${runningDir()}); drop --local for an import of the deployed stack`
    );
  const running = await runningImports(places);
  const list = running.length > 0 ? `running now: ${running.join(', ')}` : 'none runs there now';
  return (
    `no running import named ${JSON.stringify(execution)} holds lanes in ${places.map((p) => p.label).join(', ')} ` +
    `(${list}). An import holds lanes from the end of its scan to its end: \`s3-ddb-import status <name>\` ` +
    'shows where a deployed one is'
  );
}

/** The ledger's holders: `name (N lanes into T)`; what cannot be read is left out (this is only a hint). */
async function runningImports(places: LedgerPlace[]): Promise<string[]> {
  const names: string[] = [];
  for (const place of places) {
    const holders = await place.ledger.holders().catch(() => ({}));
    for (const [name, holder] of Object.entries(holders))
      names.push(`${name} (${holder.lanes} lanes into ${holder.table})`);
  }
  return names;
}
