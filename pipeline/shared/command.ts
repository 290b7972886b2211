/**
 * The shape every `ckpt` subcommand has.
 *
 * A command is thin: parse flags, read files, call pure stage functions, print. Its options
 * are one table (option-table.ts) from which the dispatcher parses and checks the command
 * line and writes `--help` (command-help.ts), and docs/cli.md is generated. Every command
 * takes `--help`; those that print results take `--json` for machine-readable output and
 * print human-readable tables otherwise. Exit codes: 0 success, 1 bad input
 * (`InputError`), 2 usage error (`UsageError`).
 *
 * `LegacyCommand` is the older shape (a help string and node:util options, read with the
 * flag helpers below), kept for the commands not yet written as a table.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors";
import type { OptionTable, ParsedOptions } from "./option-table";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** A command written as an option table. */
export interface Command<T extends OptionTable = OptionTable> {
  name: string;
  /** The first line of the help after the name: what it does, with its source. */
  title: string;
  /** Usage lines, each a whole `ckpt …` invocation. */
  usage: readonly string[];
  /** Text between the usage and the options: inputs, formats, what is computed. */
  description?: string;
  options: T;
  /** With subcommands, the first positional argument must be one of them (options say which they apply to with `for`). */
  subcommands?: readonly string[];
  /** Whether positional arguments are accepted (besides the subcommand). */
  allowPositionals?: boolean;
  /** Text after the options: exit codes, examples. */
  notes?: string;
  /** Text only `--help` prints, computed when asked: lists that other code defines (the pipeline's parameters), kept out of docs/cli.md. */
  helpAppendix?: () => string;
  run(args: ParsedOptions<T>, io: CommandIo): Promise<number | void> | number | void;
}

/** A command, with its option table's value types checked inside `run`. */
export function defineCommand<const T extends OptionTable>(command: Command<T>): Command {
  return command as unknown as Command;
}

export interface LegacyCommand {
  name: string;
  /** The full `--help` text: usage line, options with defaults and units, an example. */
  help: string;
  options: OptionSpec;
  /** Whether positional arguments are accepted. */
  allowPositionals?: boolean;
  run(args: ParsedArgs, io: CommandIo): Promise<number | void> | number | void;
}

export const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
};

/** Parse argv for a command; unknown flags and bad values become a `UsageError`. */
export function parseCommandArgs(command: LegacyCommand, argv: string[]): ParsedArgs & { help: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    const help = values.help === true;
    delete (values as Record<string, unknown>).help;
    return { values: values as ParsedArgs["values"], positionals, help };
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
}

/** A string flag's value, or the fallback; a required flag that is absent is a usage error. */
export function stringFlag(args: ParsedArgs, name: string, fallback?: string): string {
  const value = args.values[name];
  if (typeof value === "string") return value;
  if (fallback !== undefined) return fallback;
  throw new UsageError(`missing required option --${name}`);
}

export function optionalStringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** A numeric flag: must parse as a finite number, else a usage error naming the flag. */
export function numberFlag(args: ParsedArgs, name: string, fallback?: number): number {
  const value = args.values[name];
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`missing required option --${name}`);
  }
  const parsed = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} expects a number, got "${String(value)}"`);
  return parsed;
}

/** A comma-separated list of numbers, e.g. `--sizes 105,451,135`. */
export function numberListFlag(args: ParsedArgs, name: string): number[] {
  const text = stringFlag(args, name);
  const items = text.split(",").map((s) => s.trim());
  return items.map((item, index) => {
    const parsed = item === "" ? NaN : Number(item);
    if (!Number.isFinite(parsed)) {
      throw new UsageError(`--${name}: item ${index + 1} ("${item}") is not a number; expected e.g. --${name} 105,451,135`);
    }
    return parsed;
  });
}

/** One of a fixed set of words, e.g. `--form paper|full`. */
export function choiceFlag<T extends string>(args: ParsedArgs, name: string, choices: readonly T[], fallback: T): T {
  const value = args.values[name];
  if (value === undefined) return fallback;
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${choices.join(", ")}; got "${String(value)}"`);
}
