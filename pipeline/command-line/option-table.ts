/**
 * A command's options as one table: the single description from which `ckpt` parses the
 * command line, checks each value's type, writes the command's `--help` and the option
 * lists of docs/cli.md (command-help.ts). One entry per option says its kind, its default,
 * whether it is required, the subcommands it applies to, its section in the help and what
 * it does — so a default or a choice cannot say one thing in the help and do another.
 *
 * What the table checks is the command line's own grammar (a number where a number is
 * expected, one of the choices, a required option present, a whole number ≥ a bound where
 * the flag itself is a count): those are usage errors (exit 2). Whether a well-formed value
 * makes sense for the problem (a deadline ≤ 0, α outside (0, 1]) is the stage's to decide,
 * in one place for the CLI, the pipeline and notebooks: an InputError (exit 1).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../shared/errors";
import { wordsWithAliases } from "../shared/word-aliases";

interface OptionBase {
  /** What the option does, for `--help` and docs/cli.md. A "\n" starts a new line; an indented line keeps its indentation. */
  help: string;
  /** The section of the help it is listed under (default "Options"). */
  group?: string;
  /** The placeholder after the flag in the help, e.g. "<file|paper>" (choices show their words). */
  value?: string;
  /** The subcommands it applies to (commands with subcommands); any other refuses it. */
  for?: readonly string[];
  /** How the default reads in the help when it is not a plain value, e.g. "next to --out". */
  defaultText?: string;
  /**
   * For a subcommand with a help of its own (`Command.subcommandHelp`): what the option does
   * there, its default, section and placeholder there, when they differ from `help`,
   * `defaultText`, `group` and `value` (an option two simulators share, each with its own
   * default).
   */
  inSubcommand?: Readonly<Record<string, { help: string; defaultText?: string; group?: string; value?: string }>>;
}

export interface FlagOption extends OptionBase {
  kind: "flag";
}
export interface StringOption extends OptionBase {
  kind: "string";
  default?: string;
  required?: boolean;
}
/** A finite decimal number; `integer` also refuses fractions, and `min` values below it. */
export interface NumberOption extends OptionBase {
  kind: "number" | "integer";
  default?: number;
  required?: boolean;
  min?: number;
}
export interface ChoiceOption extends OptionBase {
  kind: "choice";
  choices: readonly string[];
  /** Older words still accepted, each read as the choice it names (the help lists them next to it). */
  aliases?: Readonly<Record<string, string>>;
  default?: string;
  required?: boolean;
}
/** A comma-separated list (`--sizes 105,451`), possibly repeated (`--traces a --traces b`) when `repeatable`. */
export interface ListOption extends OptionBase {
  kind: "strings" | "numbers" | "integers";
  default?: readonly (string | number)[];
  required?: boolean;
  repeatable?: boolean;
  min?: number;
  /** The words a `strings` list may hold. */
  choices?: readonly string[];
}
/** Repeated `key=value` pairs (`--param a=1 --param b=x`), kept in order as written. */
export interface AssignmentsOption extends OptionBase {
  kind: "assignments";
}

export type OptionDefinition = FlagOption | StringOption | NumberOption | ChoiceOption | ListOption | AssignmentsOption;
export type OptionTable = Record<string, OptionDefinition>;

type Known<D> = D extends { default: unknown } ? true : D extends { required: true } ? true : false;
type Maybe<D, T> = Known<D> extends true ? T : T | undefined;

/** The value a definition yields: flags are booleans; others are undefined when absent unless required or defaulted. */
export type OptionValue<D extends OptionDefinition> = D extends FlagOption
  ? boolean
  : D extends AssignmentsOption
    ? string[]
    : D extends ChoiceOption
      ? Maybe<D, D["choices"][number]>
      : D extends NumberOption
        ? Maybe<D, number>
        : D extends ListOption
          ? D["kind"] extends "strings"
            ? Maybe<D, D extends { choices: readonly (infer C)[] } ? C[] : string[]>
            : Maybe<D, number[]>
          : Maybe<D, string>;

export type OptionValues<T extends OptionTable> = { [K in keyof T]: OptionValue<T[K]> };

export interface ParsedOptions<T extends OptionTable = OptionTable> {
  values: OptionValues<T>;
  /** Positional arguments (after the subcommand, for commands that have them). */
  positionals: string[];
  /** The options given on the command line (defaults are not "given"). */
  given: ReadonlySet<string>;
  subcommand?: string;
}

/** node:util parseArgs's configuration for the table, with -h/--help. */
export function parseArgsOptions(table: OptionTable): NonNullable<ParseArgsConfig["options"]> {
  const options: NonNullable<ParseArgsConfig["options"]> = { help: { type: "boolean", short: "h" } };
  for (const [name, definition] of Object.entries(table)) {
    options[name] =
      definition.kind === "flag"
        ? { type: "boolean" }
        : { type: "string", ...(definition.kind === "assignments" || (definition.kind !== "string" && "repeatable" in definition && definition.repeatable) ? { multiple: true } : {}) };
  }
  return options;
}

function parseNumber(name: string, text: string, definition: { kind: string; min?: number }, item?: number): number {
  const value = text.trim() === "" ? NaN : Number(text);
  const integer = definition.kind === "integer" || definition.kind === "integers";
  const bound = definition.min === undefined ? "" : ` ≥ ${definition.min}`;
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || (definition.min !== undefined && value < definition.min)) {
    const expected = integer ? `a whole number${bound}` : `a number${bound}`;
    if (item !== undefined) throw new UsageError(`--${name}: item ${item} ("${text}") is not ${expected}`);
    throw new UsageError(`--${name} expects ${expected}, got ${Number.isFinite(value) ? value : `"${text}"`}`);
  }
  return value;
}

function checkChoice(name: string, value: string, choices: readonly string[], aliases: Readonly<Record<string, string>> = {}): string {
  const choice = Object.hasOwn(aliases, value) ? aliases[value]! : value;
  if (!choices.includes(choice)) throw new UsageError(`--${name} must be one of ${wordsWithAliases(choices, aliases)}; got "${value}"`);
  return choice;
}

function readValue(name: string, definition: OptionDefinition, raw: string | boolean | (string | boolean)[] | undefined): unknown {
  switch (definition.kind) {
    case "flag":
      return raw === true;
    case "assignments":
      return raw === undefined ? [] : (raw as string[]);
    case "string":
      return raw ?? definition.default;
    case "number":
    case "integer":
      return raw === undefined ? definition.default : parseNumber(name, raw as string, definition);
    case "choice":
      return raw === undefined ? definition.default : checkChoice(name, raw as string, definition.choices, definition.aliases);
    default: {
      if (raw === undefined) return definition.default === undefined ? undefined : [...definition.default];
      const items = (Array.isArray(raw) ? raw : [raw]).flatMap((text) => String(text).split(",")).map((item) => item.trim());
      if (definition.kind === "strings") {
        const words = items.filter((item) => item !== "");
        if (words.length === 0) throw new UsageError(`--${name} needs at least one value`);
        if (definition.choices) for (const word of words) checkChoice(name, word, definition.choices);
        return words;
      }
      return items.map((item, index) => parseNumber(name, item, definition, index + 1));
    }
  }
}

/**
 * Parse `argv` against the table: unknown flags, malformed values, missing required options
 * and options given to a subcommand they do not apply to are usage errors. With
 * `subcommands`, the first positional argument must be one of them.
 */
export function parseOptions<T extends OptionTable>(
  table: T,
  argv: string[],
  settings: { allowPositionals?: boolean; subcommands?: readonly string[]; command?: string } = {},
): ParsedOptions<T> & { help: boolean } {
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: parseArgsOptions(table), allowPositionals: settings.allowPositionals === true || settings.subcommands !== undefined, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
  const help = parsed.values.help === true;
  const given = new Set(Object.keys(parsed.values).filter((name) => name !== "help" && parsed.values[name] !== undefined));
  let positionals = parsed.positionals;
  let subcommand: string | undefined;
  // With --help, a subcommand named first selects its own help (nothing else is checked).
  if (help && settings.subcommands?.includes(positionals[0] ?? "")) subcommand = positionals[0];
  if (settings.subcommands !== undefined && !help) {
    subcommand = positionals[0];
    if (subcommand === undefined || !settings.subcommands.includes(subcommand)) {
      throw new UsageError(`${subcommand === undefined ? "expected a subcommand" : `unknown subcommand "${subcommand}"`}: ${settings.subcommands.join(", ")}`);
    }
    positionals = positionals.slice(1);
    for (const name of given) {
      const applies = table[name]!.for;
      if (applies !== undefined && !applies.includes(subcommand)) {
        const accepted = Object.keys(table).filter((option) => table[option]!.for?.includes(subcommand!) ?? true);
        throw new UsageError(`--${name} does not apply to "ckpt ${settings.command ?? ""} ${subcommand}" (it takes ${accepted.map((option) => `--${option}`).join(", ") || "no options"})`);
      }
    }
  }
  const values: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(table)) values[name] = readValue(name, definition, parsed.values[name]);
  if (!help) {
    for (const [name, definition] of Object.entries(table)) {
      const applies = subcommand === undefined || definition.for === undefined || definition.for.includes(subcommand);
      if ("required" in definition && definition.required && applies && values[name] === undefined) throw new UsageError(`missing required option --${name}`);
    }
  }
  return { values: values as OptionValues<T>, positionals, given, help, ...(subcommand !== undefined ? { subcommand } : {}) };
}
