/**
 * `--help` texts, written from the same definitions the parser reads (spec.ts): the tool's list of
 * commands and each command's usage, arguments, options (with the environment variable each falls
 * back to), examples and exit codes.
 */
import { EXIT_CODES, HELP_OPTION, type CommandSpec, type OptionSpec } from './spec.js';

const pad = (rows: [string, string][]) => {
  const width = Math.min(30, Math.max(...rows.map(([left]) => left.length)));
  return rows.map(([left, right]) => (left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`)).join('\n');
};

function optionRow(name: string, o: OptionSpec): [string, string] {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
  const extra = [o.choices ? `one of ${o.choices.join(', ')}` : '', o.env ? `default: $${o.env}` : ''].filter(Boolean).join('; ');
  return [flag, extra ? `${o.help} (${extra})` : o.help];
}

export function usageLine(spec: CommandSpec): string {
  const args = spec.args.map((a) => (a.required ? `<${a.choices ? a.choices.join('|') : a.name}>` : `[${a.name}]`)).join(' ');
  return `paydesk ${spec.name}${args ? ` ${args}` : ''} [options]`;
}

export function commandHelp(spec: CommandSpec): string {
  const parts = [`Usage: ${usageLine(spec)}`, '', `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`];
  if (spec.description) parts.push('', spec.description);
  if (spec.args.length > 0) {
    parts.push('', 'Arguments:', pad(spec.args.map((a) => [a.name, a.choices ? `${a.help}: ${a.choices.join(', ')}` : a.help])));
  }
  const options = { ...spec.options, ...HELP_OPTION };
  parts.push('', 'Options:', pad(Object.entries(options).map(([name, o]) => optionRow(name, o))));
  if (spec.examples?.length) parts.push('', 'Examples:', ...spec.examples.map((e) => `  ${e}`));
  parts.push('', EXIT_CODES, '');
  return parts.join('\n');
}

export function toolHelp(commands: readonly CommandSpec[]): string {
  return [
    'Usage: paydesk <command> [options]',
    '',
    'The paydesk developer tool: the sandbox, its scenario controls, the provider\'s orders and balance,',
    'webhook tests and a check of a deployment. The provider comes from PAYDESK_PROVIDER_URL and',
    'PAYDESK_API_KEY (or --provider-url and --api-key).',
    '',
    'Commands:',
    pad(commands.map((c) => [`${c.name}${c.args.length ? ` ${c.args.map((a) => (a.required ? (a.choices ? '<event>' : `<${a.name}>`) : `[${a.name}]`)).join(' ')}` : ''}`, c.summary])),
    '',
    "Run 'paydesk <command> --help' for a command's options.",
    EXIT_CODES,
    '',
  ].join('\n');
}
