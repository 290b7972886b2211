/** docs/cli.md and every command's --help come from the commands' option tables. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../pipeline/cli";
import { CLI_REFERENCE_PATH, cliReference } from "../../pipeline/commands/cli-reference";
import { defaultText } from "../../pipeline/command-line/command-help";
import { runCli } from "../cli-io";

describe("the command-line reference", () => {
  it("docs/cli.md is what the option tables say (regenerate it with `npm run docs`)", async () => {
    const committed = readFileSync(CLI_REFERENCE_PATH, "utf8");
    const generated = await cliReference();
    if (committed !== generated) expect.fail(`${CLI_REFERENCE_PATH} is out of date with the commands' option tables: run \`npm run docs\` and commit it`);
  });

  it("every command's --help lists each option of its table with its default (or its subcommands' own helps do)", async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await entry.load();
      const { code, stdout } = await runCli([name, "--help"]);
      expect({ name, code }).toEqual({ name, code: 0 });
      expect(stdout.startsWith(`ckpt ${name} — ${command.title}\n`)).toBe(true);
      const own = Object.keys(command.subcommandHelp ?? {});
      const subcommandHelps = new Map<string, string>();
      for (const subcommand of own) {
        const run = await runCli([name, subcommand, "--help"]);
        expect({ name, subcommand, code: run.code }).toEqual({ name, subcommand, code: 0 });
        expect(run.stdout.startsWith(`ckpt ${name} ${subcommand} — ${command.subcommandHelp![subcommand]!.title}\n`)).toBe(true);
        subcommandHelps.set(subcommand, run.stdout);
      }
      for (const [option, definition] of Object.entries(command.options)) {
        // Listed in the command's help unless only subcommands with a help of their own take it; then in each of theirs.
        const mine = definition.for?.filter((subcommand) => own.includes(subcommand)) ?? [];
        const helps: [string, string | undefined][] =
          definition.for !== undefined && mine.length === definition.for.length ? mine.map((s) => [s, definition.inSubcommand?.[s]?.defaultText]) : [["", undefined]];
        for (const [subcommand, ownDefault] of helps) {
          const text = subcommand === "" ? stdout : subcommandHelps.get(subcommand)!;
          const where = `${name} ${subcommand} --${option}`;
          expect(text, where).toMatch(new RegExp(`^  --${option}\\b`, "m"));
          const fallback = ownDefault ?? defaultText(definition);
          if (fallback !== undefined) expect(text.replace(/\s+/g, " "), where).toContain(`default: ${fallback.replace(/\s+/g, " ")}`);
        }
      }
    }
  });
});
