/**
 * A command's `--help` text and its section of docs/cli.md, both written from its option
 * table (option-table.ts): the usage lines, the description, the options by section with
 * their placeholders, defaults and the subcommands they apply to, then the notes (exit
 * codes, examples).
 *
 * A subcommand may have a help of its own (`subcommandHelp`: `ckpt simulate bkt --help`):
 * its usage, description and notes, and only the options that apply to it, each with its
 * wording and default there. The command's own help then leaves out the options that only
 * such subcommands take and says where they are; docs/cli.md gives each such subcommand a
 * section after its command's.
 */
import { wordsWithAliases } from "../shared/word-aliases";
import type { OptionDefinition, OptionTable } from "./option-table";

/** The text of a subcommand's own help (its options come from the command's table). */
export interface SubcommandText {
  title: string;
  usage: readonly string[];
  description?: string;
  notes?: string;
}

/** What the help is made from (a command, see command.ts). */
export interface CommandText {
  name: string;
  title: string;
  usage: readonly string[];
  description?: string;
  options: OptionTable;
  notes?: string;
  helpAppendix?: () => string;
  subcommandHelp?: Readonly<Record<string, SubcommandText>>;
}

const WIDTH = 100;
const MAX_FLAG_COLUMN = 30;

/** The placeholder after the flag: the table's, or the choices, or one by kind. */
export function placeholder(definition: OptionDefinition): string {
  if (definition.value !== undefined) return definition.value;
  switch (definition.kind) {
    case "flag":
      return "";
    case "choice":
      return definition.choices.join("|");
    case "number":
      return "<x>";
    case "integer":
      return "<n>";
    case "assignments":
      return "<key=value>";
    case "strings":
      return definition.choices ? `<${definition.choices.join("|")},…>` : "<a,b,…>";
    default:
      return "<x,y,…>";
  }
}

/** The default as the help states it, or undefined when there is none to state. */
export function defaultText(definition: OptionDefinition): string | undefined {
  if (definition.defaultText !== undefined) return definition.defaultText;
  if (definition.kind === "flag" || definition.kind === "assignments" || definition.default === undefined) return undefined;
  return Array.isArray(definition.default) ? definition.default.join(",") : String(definition.default);
}

/**
 * The option as one subcommand's own help shows it: its wording and default there, and no
 * list of the subcommands it applies to (it applies to this one).
 */
function inSubcommand(definition: OptionDefinition, subcommand: string): OptionDefinition {
  const own = definition.inSubcommand?.[subcommand];
  const { for: _for, inSubcommand: _texts, ...rest } = definition;
  return { ...rest, ...own } as OptionDefinition;
}

/** The options a help lists: a subcommand's own (as it shows them), or the command's less those only such subcommands take. */
function listedOptions(command: CommandText, subcommand?: string): OptionTable {
  const listed: OptionTable = {};
  for (const [name, definition] of Object.entries(command.options)) {
    if (subcommand !== undefined) {
      if (definition.for === undefined || definition.for.includes(subcommand)) listed[name] = inSubcommand(definition, subcommand);
    } else if (!(definition.for?.every((s) => command.subcommandHelp?.[s] !== undefined) ?? false)) {
      listed[name] = definition;
    }
  }
  return listed;
}

/** The command's text, or a subcommand's own (the name then "simulate bkt"). */
function textOf(command: CommandText, subcommand?: string): CommandText {
  const own = subcommand === undefined ? undefined : command.subcommandHelp?.[subcommand];
  if (own !== undefined) return { name: `${command.name} ${subcommand}`, ...own, options: listedOptions(command, subcommand) };
  const withHelp = Object.keys(command.subcommandHelp ?? {});
  if (withHelp.length === 0) return command;
  const pointer = `${withHelp.join(" and ")} ${withHelp.length === 1 ? "has a help of its own, with its" : "each have a help of their own, with their"} options: ${withHelp.map((s) => `ckpt ${command.name} ${s} --help`).join(", ")}.`;
  return { ...command, options: listedOptions(command), notes: [pointer, command.notes].filter(Boolean).join("\n\n") };
}

/** A choice's words with their older aliases, "accepts refuse (alias strict) | extrapolate (alias warn)", or undefined without aliases. */
function aliasesText(definition: OptionDefinition): string | undefined {
  return definition.kind === "choice" && definition.aliases !== undefined ? `accepts ${wordsWithAliases(definition.choices, definition.aliases, " | ")}` : undefined;
}

/** The option's description with what the table adds: a choice's aliases, required, default, repeatable, subcommands. */
function describe(definition: OptionDefinition): string {
  const facts: string[] = [];
  const aliases = aliasesText(definition);
  if (aliases !== undefined) facts.push(aliases);
  if ("required" in definition && definition.required) facts.push("required");
  const fallback = defaultText(definition);
  if (fallback !== undefined) facts.push(`default: ${fallback}`);
  if (definition.kind === "assignments" || ("repeatable" in definition && definition.repeatable)) facts.push("repeatable");
  const scope = definition.for === undefined ? "" : `(${definition.for.join(", ")}) `;
  return `${scope}${definition.help}${facts.length > 0 ? ` (${facts.join("; ")})` : ""}`;
}

/** Greedy word wrap of one paragraph; a leading indentation is kept on every line. */
function wrap(text: string, width: number): string[] {
  const indent = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = indent;
  for (const word of text.trim().split(/ +/)) {
    if (line.trim() !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line.trim() === "" ? indent + word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines;
}

function groups(options: OptionTable): Map<string, [string, OptionDefinition][]> {
  const byGroup = new Map<string, [string, OptionDefinition][]>();
  for (const entry of Object.entries(options)) {
    const group = entry[1].group ?? "Options";
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group)!.push(entry);
  }
  return byGroup;
}

/** The `--help` text: the command's, or that of a subcommand with a help of its own. */
export function formatHelp(whole: CommandText, subcommand?: string): string {
  const command = textOf(whole, subcommand);
  const flag = (name: string, definition: OptionDefinition) => `  --${name}${definition.kind === "flag" ? "" : ` ${placeholder(definition)}`}`;
  const entries = Object.entries(command.options);
  const column = Math.min(MAX_FLAG_COLUMN, Math.max(16, ...entries.map(([name, d]) => flag(name, d).length + 2).filter((n) => n <= MAX_FLAG_COLUMN)));
  const lines = [`ckpt ${command.name} — ${command.title}`, "", "Usage:", ...command.usage.map((u) => `  ${u}`)];
  if (command.description) lines.push("", command.description.trimEnd());
  const byGroup = groups({ ...command.options, help: { kind: "flag", help: "this text" } });
  for (const [group, members] of byGroup) {
    lines.push("", `${group}:`);
    for (const [name, definition] of members) {
      const left = name === "help" ? "  -h, --help" : flag(name, definition);
      const text = describe(definition)
        .split("\n")
        .flatMap((paragraph) => wrap(paragraph, WIDTH - column));
      if (left.length + 2 > column) lines.push(left, ...text.map((t) => " ".repeat(column) + t));
      else lines.push(left.padEnd(column) + text[0], ...text.slice(1).map((t) => " ".repeat(column) + t));
    }
  }
  if (command.helpAppendix) lines.push("", command.helpAppendix().trimEnd());
  if (command.notes) lines.push("", command.notes.trimEnd());
  return lines.join("\n");
}

const escapeCell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, "<br>");

/** The command's section of docs/cli.md, then one per subcommand with a help of its own. */
export function formatMarkdown(whole: CommandText): string {
  return [undefined, ...Object.keys(whole.subcommandHelp ?? {})].map((subcommand) => markdownSection(textOf(whole, subcommand), subcommand === undefined ? "##" : "###")).join("\n\n");
}

function markdownSection(command: CommandText, level: string): string {
  const lines = [`${level} ckpt ${command.name}`, "", `${command.title.charAt(0).toUpperCase()}${command.title.slice(1)}.`, "", "```", ...command.usage, "```"];
  if (command.description) lines.push("", "```text", command.description.trimEnd(), "```");
  for (const [group, members] of groups(command.options)) {
    lines.push("", `**${group}**`, "", "| option | default | what |", "|---|---|---|");
    for (const [name, definition] of members) {
      const value = definition.kind === "flag" ? "" : ` ${placeholder(definition)}`;
      const fallback = "required" in definition && definition.required ? "required" : (defaultText(definition) ?? "");
      const scope = definition.for === undefined ? "" : `(${definition.for.join(", ")}) `;
      const repeat = definition.kind === "assignments" || ("repeatable" in definition && definition.repeatable) ? " Repeatable." : "";
      const aliases = aliasesText(definition);
      const accepts = aliases === undefined ? "" : `; ${escapeCell(aliases)}`;
      lines.push(`| \`--${name}${escapeCell(value)}\` | ${escapeCell(fallback)} | ${escapeCell(scope + definition.help)}${accepts}${repeat} |`);
    }
  }
  if (command.notes) lines.push("", "```text", command.notes.trimEnd(), "```");
  return lines.join("\n");
}
