/**
 * A command's argv read by Node's `util.parseArgs` from the command's definition (spec.ts): unknown
 * options, a missing value, a missing or extra argument and a value outside its choices are each a
 * UsageError (exit 2) of one line.
 */
import { parseArgs } from 'node:util';
import { HELP_OPTION, type CommandSpec, type Input } from './spec.js';
import { UsageError } from './io.js';

/** parseArgs' own messages, shortened to the fact (they end in advice about `--` that does not apply). */
function usageMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\.\s*To specify an? (option|positional) argument starting with[\s\S]*$/, '').replace(/\.?\s*$/, '');
}

/** The parsed input, or `null` when `--help` was asked for. */
export function parse(spec: CommandSpec, argv: readonly string[]): Input | null {
  const all = { ...spec.options, ...HELP_OPTION };
  const options = Object.fromEntries(
    Object.entries(all).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(usageMessage(err));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help === true) return null;
  for (const [name, o] of Object.entries(spec.options)) {
    const v = values[name];
    if (typeof v === 'string' && o.choices && !o.choices.includes(v)) {
      throw new UsageError(`--${name} must be one of ${o.choices.join(', ')}, not ${JSON.stringify(v)}`);
    }
  }
  const positionals = parsed.positionals;
  if (positionals.length > spec.args.length) {
    const extra = positionals[spec.args.length]!;
    throw new UsageError(spec.args.length === 0 ? `takes no arguments, got ${JSON.stringify(extra)}` : `unexpected argument ${JSON.stringify(extra)}`);
  }
  const args: Record<string, string | undefined> = {};
  spec.args.forEach((a, i) => {
    const v = positionals[i];
    if (v === undefined || v === '') {
      if (a.required) throw new UsageError(`missing ${a.name}${a.choices ? ` (one of ${a.choices.join(', ')})` : ''}`);
      return;
    }
    if (a.choices && !a.choices.includes(v)) throw new UsageError(`${a.name} must be one of ${a.choices.join(', ')}, not ${JSON.stringify(v)}`);
    args[a.name] = v;
  });
  return { options: values, args };
}
