/**
 * `npm run sandbox -- --port 4010 --api-key KEY` (and the `paydesk-sandbox` bin): the sandbox alone
 * on 127.0.0.1, one log line per request. The program is `paydesk sandbox` (src/cli/commands/sandbox.ts);
 * this entry keeps its older names working exactly as before.
 */
import { sandbox } from '../cli/commands/sandbox.js';
import { processIo } from '../cli/core/io.js';
import { runCommand } from '../cli/main.js';

const code = await runCommand(sandbox, process.argv.slice(2), processIo(), 'sandbox', 'paydesk-sandbox');
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
