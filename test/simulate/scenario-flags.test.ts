import { describe, expect, it } from "vitest";
import { BKT_FLAG_HELP, BKT_SCENARIO_FLAGS } from "../../pipeline/simulate/bkt/bkt-overrides";
import { DAS06_FLAG_HELP, DAS06_SCENARIO_FLAGS } from "../../pipeline/simulate/das06/das06-overrides";
import { command } from "../../pipeline/commands/simulate";
import { formatHelp } from "../../pipeline/command-line/command-help";
import type { CommandText } from "../../pipeline/command-line/command-help";

describe("ckpt simulate's scenario flags", () => {
  it("each have one line of help, and no help line is left without its flag", () => {
    expect(Object.keys(BKT_FLAG_HELP).sort()).toEqual([...BKT_SCENARIO_FLAGS.flags].sort());
    expect(Object.keys(DAS06_FLAG_HELP).sort()).toEqual([...DAS06_SCENARIO_FLAGS.flags].sort());
  });

  it("are all in the command's option table, for their simulator, and in that simulator's --help", () => {
    const options = (command as unknown as CommandText).options;
    for (const [flags, simulator] of [[BKT_SCENARIO_FLAGS.flags, "bkt"], [DAS06_SCENARIO_FLAGS.flags, "das06"]] as const) {
      const help = formatHelp(command as unknown as CommandText, simulator);
      for (const flag of flags) {
        expect(options[flag]?.for, flag).toContain(simulator);
        expect(help).toContain(`--${flag} `);
      }
    }
  });
});
