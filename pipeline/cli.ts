/**
 * `ckpt`: the command line. Thin by design: each subcommand lives in
 * `pipeline/commands/<name>.ts` (flags, files, printing) and calls the stages' pure
 * functions. Commands are loaded lazily so that `ckpt peaks` does not pay for the report
 * stage's renderers at start-up.
 */
import { parseCommandArgs, processIo, type Command, type CommandIo } from "./shared/command";
import { InputError, UsageError, exitCodeOf } from "./shared/errors";
import { TOOL_VERSION } from "./shared/version";

type CommandLoader = () => Promise<Command>;

/** Subcommand name → loader, in the order the pipeline's data flows. */
const COMMANDS: Record<string, CommandLoader> = {
  harness: async () => (await import("./commands/harness.js")).command,
  synth: async () => (await import("./commands/synth.js")).command,
  ingest: async () => (await import("./commands/ingest.js")).command,
  fit: async () => (await import("./commands/fit.js")).command,
  peaks: async () => (await import("./commands/peaks.js")).command,
  schedule: async () => (await import("./commands/schedule.js")).command,
  campaign: async () => (await import("./commands/campaign.js")).command,
  place: async () => (await import("./commands/place.js")).command,
  pipeline: async () => (await import("./commands/pipeline.js")).command,
  notebook: async () => (await import("./commands/notebook.js")).command,
};

async function mainHelp(): Promise<string> {
  const summaries = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, load]) => `  ${name.padEnd(10)} ${(await load()).summary}`),
  );
  return [
    `ckpt ${TOOL_VERSION} — checkpoint bandwidth experiments, the bw(m, V) model, ScheduleCkpt and the DP placer`,
    "",
    "Usage: ckpt <command> [options]     ckpt <command> --help",
    "",
    "Commands:",
    ...summaries,
    "",
    "Exit codes: 0 success, 1 bad input (the message says how to fix it), 2 usage error.",
  ].join("\n");
}

export async function main(argv: string[], io: CommandIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(await mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version") {
    io.stdout(TOOL_VERSION);
    return 0;
  }
  const load = COMMANDS[name];
  if (load === undefined) {
    io.stderr(`ckpt: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(", ")}. Try ckpt --help.`);
    return 2;
  }
  const command = await load();
  try {
    const args = parseCommandArgs(command, rest);
    if (args.help) {
      io.stdout(command.help);
      return 0;
    }
    return (await command.run(args, io)) ?? 0;
  } catch (error) {
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`ckpt ${name}: ${message}`);
    if (error instanceof UsageError) io.stderr(`Run "ckpt ${name} --help" for usage.`);
    // An error that is neither the user's input nor usage is a bug: show where it came from.
    else if (!(error instanceof InputError) && error instanceof Error && error.stack) io.stderr(error.stack);
    return code;
  }
}
