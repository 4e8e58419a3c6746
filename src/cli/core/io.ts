/**
 * What a command touches outside itself (output, environment, network, clock), passed in so the
 * commands run in-process in tests; and the two errors a command throws: UsageError (exit 2) and
 * Failure (exit 1). Each carries one line that says what to do.
 */
export interface Io {
  /** Writes to stdout (the data). */
  out(text: string): void;
  /** Writes to stderr (errors, notes). */
  err(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  fetch: typeof fetch;
  /** Epoch milliseconds. */
  now(): number;
  /** The folder relative paths start from (`doctor --handler`). */
  cwd: string;
}

export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    env: process.env,
    fetch: globalThis.fetch,
    now: Date.now,
    cwd: process.cwd(),
  };
}

/** Bad usage: an unknown command or option, a missing or bad argument (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command could not do its job (exit 1): the provider refused, a URL did not answer, … */
export class Failure extends Error {
  override name = 'Failure';
}

/** An environment value, or undefined when unset or blank. */
export function envValue(io: Io, name: string): string | undefined {
  const v = io.env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** A string option, else its environment variable, else undefined. */
export function optionOrEnv(options: Record<string, string | boolean | undefined>, name: string, io: Io, env: string): string | undefined {
  const given = options[name];
  if (typeof given === 'string') {
    if (given.trim() === '') throw new UsageError(`--${name} is empty; give a value or leave it out to use ${env}`);
    return given.trim();
  }
  return envValue(io, env);
}

/** Writes `value` as pretty JSON on stdout. */
export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
