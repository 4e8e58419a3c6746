/** `npm run paydesk -- <command>` in this repository: the same program as the installed `paydesk` bin (bin/paydesk.js), from the sources. */
import { main } from './main.js';

const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
