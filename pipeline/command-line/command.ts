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
 * The value helpers below read options the table keeps as text (`ckpt simulate`'s scenario
 * flags, checked by the scenarios themselves) and give usage errors in the table's words.
 */
import type { SubcommandText } from "./command-help";
import { UsageError } from "../shared/errors";
import type { OptionTable, ParsedOptions } from "./option-table";

export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A command's option values by flag name, as the table gives them. */
export type OptionValueRecord = Readonly<Record<string, unknown>>;

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
  /** Subcommands with a help of their own (`ckpt <command> <subcommand> --help`; command-help.ts). */
  subcommandHelp?: Readonly<Record<string, SubcommandText>>;
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

export const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
};

/** A string flag's value, or the fallback; a required flag that is absent is a usage error. */
export function stringFlag(values: OptionValueRecord, name: string, fallback?: string): string {
  const value = values[name];
  if (typeof value === "string") return value;
  if (fallback !== undefined) return fallback;
  throw new UsageError(`missing required option --${name}`);
}

/** A numeric flag: must parse as a finite number, else a usage error naming the flag. */
export function numberFlag(values: OptionValueRecord, name: string, fallback?: number): number {
  const value = values[name];
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`missing required option --${name}`);
  }
  const parsed = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} expects a number, got "${String(value)}"`);
  return parsed;
}

/** One of a fixed set of words, e.g. `--form paper|full`. */
export function choiceFlag<T extends string>(values: OptionValueRecord, name: string, choices: readonly T[], fallback: T): T {
  const value = values[name];
  if (value === undefined) return fallback;
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${choices.join(", ")}; got "${String(value)}"`);
}
