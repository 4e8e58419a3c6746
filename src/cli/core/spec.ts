/**
 * What a command is, as data: its name, arguments and options. The same definition feeds Node's
 * `util.parseArgs` (core/parse.ts) and the `--help` text (core/help.ts), so the two cannot disagree.
 */
import type { Io } from './io.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** One letter: `-h`. */
  short?: string;
  /** The value's name in the help: `--status STATUS`. */
  value?: string;
  help: string;
  /** The environment variable read when the option is not given (said in the help). */
  env?: string;
  /** The only values allowed (checked after parsing: exit 2 otherwise). */
  choices?: readonly string[];
}

export interface ArgSpec {
  name: string;
  help: string;
  required?: boolean;
  choices?: readonly string[];
}

/** What a command's `run` gets: the parsed options and arguments, by name. */
export interface Input {
  options: Record<string, string | boolean | undefined>;
  args: Record<string, string | undefined>;
}

export interface CommandSpec {
  /** As typed: `orders list`. */
  name: string;
  /** One line for the tool's help. */
  summary: string;
  /** Paragraphs for the command's own help (after the summary). */
  description?: string;
  args: readonly ArgSpec[];
  options: Readonly<Record<string, OptionSpec>>;
  examples?: readonly string[];
  /** Resolves with the exit code (0 success, 1 failure or finding). Throws UsageError (2) or Failure (1). */
  run(input: Input, io: Io): Promise<number>;
}

/** `--json`: for commands that print data. */
export const JSON_OPTION = {
  json: { type: 'boolean', help: 'print JSON (one document on stdout) instead of text' },
} as const satisfies Record<string, OptionSpec>;

/** Where the provider (or the sandbox) is. */
export const PROVIDER_OPTIONS = {
  'provider-url': { type: 'string', value: 'URL', env: 'PAYDESK_PROVIDER_URL', help: 'the provider (or sandbox) base URL, e.g. http://127.0.0.1:4010' },
  'api-key': { type: 'string', value: 'KEY', env: 'PAYDESK_API_KEY', help: "the terminal's API key" },
} as const satisfies Record<string, OptionSpec>;

/** Every command has it; parse.ts adds it. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h', help: 'show this help' } } as const satisfies Record<string, OptionSpec>;

/** What the exit codes mean, for every help text. */
export const EXIT_CODES = 'Exit codes: 0 success; 1 a failure (or a doctor finding); 2 bad usage (unknown command or option, missing or bad argument).';
