// A `local` stand-in for running-registry.test.ts: registers in the folder given, says so on stdout, then waits for
// a signal (`wait`) or exits at once with code 3 (`exit`), as a `local` that ends either way would.
import { registerRunning } from '../../../cli/local-run/running-registry.js';

const [dir, how] = process.argv.slice(2);
const registration = await registerRunning({ dynamodbEndpoint: 'http://127.0.0.1:1', ledgerTable: 'l' }, { dir });
process.stdout.write(`${registration.file}\n`);
if (how === 'exit') process.exit(3);
setInterval(() => undefined, 60_000); // keeps the process up until the signal
