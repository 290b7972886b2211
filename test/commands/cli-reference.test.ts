/** docs/cli.md and every command's --help come from the commands' option tables. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../pipeline/cli";
import { CLI_REFERENCE_PATH, cliReference } from "../../pipeline/commands/cli-reference";
import { defaultText } from "../../pipeline/shared/command-help";
import { runCli } from "../cli-io";

describe("the command-line reference", () => {
  it("docs/cli.md is what the option tables say (regenerate it with `npm run docs`)", async () => {
    const committed = readFileSync(CLI_REFERENCE_PATH, "utf8");
    const generated = await cliReference();
    if (committed !== generated) expect.fail(`${CLI_REFERENCE_PATH} is out of date with the commands' option tables: run \`npm run docs\` and commit it`);
  });

  it("every command's --help lists each option of its table with its default", async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await entry.load();
      const { code, stdout } = await runCli([name, "--help"]);
      expect({ name, code }).toEqual({ name, code: 0 });
      if ("help" in command) continue; // not yet written as a table
      expect(stdout.startsWith(`ckpt ${name} — ${command.title}\n`)).toBe(true);
      for (const [option, definition] of Object.entries(command.options)) {
        expect(stdout, `${name} --${option}`).toMatch(new RegExp(`^  --${option}\\b`, "m"));
        const fallback = defaultText(definition);
        if (fallback !== undefined) expect(stdout.replace(/\s+/g, " "), `${name} --${option}`).toContain(`default: ${fallback.replace(/\s+/g, " ")}`);
      }
    }
  });
});
