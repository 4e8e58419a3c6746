/**
 * `paydesk <command>`: finds the command (one file each in commands/), parses its argv from its
 * definition, runs it, and turns what it throws into an exit code and one line on stderr:
 * 0 success, 1 a failure or a doctor finding, 2 bad usage (with the command's help to ask for).
 * `main(argv, io)` runs in-process (tests); bin/paydesk.js runs it with the process's io.
 */
import { balance } from './commands/balance.js';
import { doctor } from './commands/doctor.js';
import { ordersList, ordersShow } from './commands/orders.js';
import { sandbox } from './commands/sandbox.js';
import { trigger } from './commands/trigger.js';
import { webhooksResend, webhooksTest } from './commands/webhooks.js';
import { commandHelp, toolHelp } from './core/help.js';
import { Failure, UsageError, processIo, type Io } from './core/io.js';
import { parse } from './core/parse.js';
import type { CommandSpec } from './core/spec.js';

export const COMMANDS: readonly CommandSpec[] = [sandbox, trigger, ordersList, ordersShow, balance, webhooksTest, webhooksResend, doctor];

/** Groups whose subcommand may be left out, and the one it then means: `paydesk orders` lists. */
const DEFAULT_SUBCOMMAND: Readonly<Record<string, string>> = { orders: 'list' };

/** The command named at the start of argv, and the rest of argv. */
function find(argv: readonly string[]): { spec: CommandSpec; rest: string[] } {
  const [first = '', second] = argv;
  const single = COMMANDS.find((c) => c.name === first);
  if (single) return { spec: single, rest: argv.slice(1) };
  const group = COMMANDS.filter((c) => c.name.startsWith(`${first} `));
  if (group.length === 0) throw new UsageError(`unknown command ${JSON.stringify(first)}; the commands are ${[...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))].join(', ')}`);
  const sub = group.find((c) => c.name === `${first} ${second}`);
  if (sub) return { spec: sub, rest: argv.slice(2) };
  const subs = group.map((c) => c.name.split(' ')[1]).join(', ');
  const fallback = DEFAULT_SUBCOMMAND[first];
  if (fallback && (second === undefined || second.startsWith('-'))) return { spec: group.find((c) => c.name === `${first} ${fallback}`)!, rest: argv.slice(1) };
  if (second === undefined) throw new UsageError(`${first} needs a subcommand: ${subs}`);
  if (second === '--help' || second === '-h') throw new UsageError(`${first} has the subcommands ${subs}: run 'paydesk ${first} <subcommand> --help'`);
  throw new UsageError(`unknown command "${first} ${second}"; ${first} has ${subs}`);
}

/**
 * Runs one command; `as` names it in error lines (`paydesk orders list`, or `sandbox` for
 * paydesk-sandbox), `invoked` is how its help is asked for.
 */
export async function runCommand(spec: CommandSpec, argv: readonly string[], io: Io, as = `paydesk ${spec.name}`, invoked = `paydesk ${spec.name}`): Promise<number> {
  try {
    const input = parse(spec, argv);
    if (!input) {
      io.out(commandHelp(spec));
      return 0;
    }
    return await spec.run(input, io);
  } catch (err) {
    return reported(err, io, as, `run '${invoked} --help' for its usage`);
  }
}

function reported(err: unknown, io: Io, as: string, usageHint: string): number {
  if (err instanceof UsageError) {
    io.err(`${as}: ${err.message}; ${usageHint}`);
    return 2;
  }
  if (err instanceof Failure) {
    io.err(`${as}: ${err.message}`);
    return 1;
  }
  // Not expected: still one line (the stack with PAYDESK_DEBUG=1).
  io.err(`${as}: ${err instanceof Error ? err.message : String(err)} (unexpected; PAYDESK_DEBUG=1 shows the stack)`);
  if (io.env.PAYDESK_DEBUG === '1' && err instanceof Error && err.stack) io.err(err.stack);
  return 1;
}

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const text = toolHelp(COMMANDS);
    if (first === undefined) {
      io.err(text);
      return 2;
    }
    io.out(text);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(await version());
    return 0;
  }
  let found;
  try {
    found = find(argv);
  } catch (err) {
    return reported(err, io, 'paydesk', "run 'paydesk --help' for the commands");
  }
  return runCommand(found.spec, found.rest, io);
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
