/**
 * docs/cli.md, the command-line reference: every command's usage, description, options
 * (with their defaults, from the same tables `ckpt` parses with) and notes, in the order of
 * `ckpt --help`. A test checks that the committed file is what this writes; after changing
 * a command's options, regenerate it with `npm run docs`.
 */
import { join } from "node:path";
import { COMMANDS } from "../cli";
import { writeFileAtomic } from "../shared/atomic-write";
import { formatMarkdown } from "../command-line/command-help";
import { projectRoot } from "../shared/version";

export const CLI_REFERENCE_PATH = join("docs", "cli.md");

export async function cliReference(): Promise<string> {
  const sections: string[] = [];
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    sections.push(formatMarkdown(command));
  }
  const contents = Object.entries(COMMANDS).map(([name, entry]) => `- [\`ckpt ${name}\`](#ckpt-${name}): ${entry.summary}`);
  return [
    "# Command-line reference",
    "",
    "Generated from the commands' option tables (`npm run docs`); do not edit by hand. The same",
    "text, laid out for a terminal, is `ckpt <command> --help`. Every command exits 0 on success,",
    "1 on bad input (the message says what, where and how to fix it) and 2 on a usage error.",
    "",
    ...contents,
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}

if (require.main === module) {
  void cliReference().then((text) => {
    writeFileAtomic(join(projectRoot(), CLI_REFERENCE_PATH), text);
    console.log(`wrote ${CLI_REFERENCE_PATH}`);
  });
}
