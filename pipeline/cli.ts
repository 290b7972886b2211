/**
 * `ckpt`: the command line. Thin by design: each subcommand lives in
 * `pipeline/commands/<name>.ts` (flags, files, printing) and calls the stages' pure
 * functions. Commands are loaded lazily so that `ckpt peaks` does not pay for the report
 * stage's renderers at start-up, and `ckpt --help` loads none: each command's one-line
 * summary lives in the table below.
 */
import { processIo, type Command, type CommandIo } from "./command-line/command";
import { formatHelp } from "./command-line/command-help";
import { parseOptions } from "./command-line/option-table";
import { InputError, UsageError, exitCodeOf } from "./shared/errors";
import { TOOL_VERSION } from "./shared/version";

interface CommandEntry {
  /** One line for `ckpt --help`. */
  summary: string;
  load: () => Promise<Command>;
}

/** Subcommand name → its summary and loader, in the order the pipeline's data flows. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  harness: {
    summary: "run checkpoint-bandwidth measurement sweeps (emulator or checkpoint commands) and write traces",
    load: async () => (await import("./commands/harness.js")).command,
  },
  synth: {
    summary: "write a seeded synthetic checkpoint campaign, Azur-like or of another cluster shape (canonical CSV)",
    load: async () => (await import("./commands/synth.js")).command,
  },
  ingest: {
    summary: "read checkpoint traces, validate every row, aggregate into size series",
    load: async () => (await import("./commands/ingest.js")).command,
  },
  fit: {
    summary: "fit bw(m, V) by least squares: coefficients with SE/CI, R², E_global, CV, peaks",
    load: async () => (await import("./commands/fit.js")).command,
  },
  peaks: {
    summary: "bandwidth curve of a data set checkpointed by growing prefixes, and its peak",
    load: async () => (await import("./commands/peaks.js")).command,
  },
  predict: {
    summary: "bandwidth and duration of one new checkpoint burst: mean and prediction interval",
    load: async () => (await import("./commands/predict.js")).command,
  },
  schedule: {
    summary: "choose the checkpoints to take before the release deadline (ScheduleCkpt)",
    load: async () => (await import("./commands/schedule.js")).command,
  },
  campaign: {
    summary: "run ScheduleCkpt's campaigns over seeds, next to the published values",
    load: async () => (await import("./commands/campaign.js")).command,
  },
  release: {
    summary: "before nodes are taken back: which running jobs to checkpoint, planned and done with Slurm or OAR",
    load: async () => (await import("./commands/release.js")).command,
  },
  place: {
    summary: "optimal checkpoint placement in a job of slices under a failure law, vs Young/Daly",
    load: async () => (await import("./commands/place.js")).command,
  },
  pipeline: {
    summary: "run every stage, traces → report (skips what is up to date)",
    load: async () => (await import("./commands/pipeline.js")).command,
  },
  simulate: {
    summary: "desktop-grid simulations: sweeps in shards, merge with 95 % intervals, availability traces",
    load: async () => (await import("./commands/simulate.js")).command,
  },
  notebook: {
    summary: "list the notebooks, run one headlessly with --param values, or install the TypeScript kernel into your Jupyter",
    load: async () => (await import("./commands/notebook.js")).command,
  },
};

function mainHelp(): string {
  const summaries = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`);
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
    io.stdout(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version") {
    io.stdout(TOOL_VERSION);
    return 0;
  }
  const entry = COMMANDS[name];
  if (entry === undefined) {
    io.stderr(`ckpt: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(", ")}. Try ckpt --help.`);
    return 2;
  }
  const command = await entry.load();
  try {
    const settings = { allowPositionals: command.allowPositionals ?? false, command: name, ...(command.subcommands ? { subcommands: command.subcommands } : {}) };
    const { help, ...args } = parseOptions(command.options, rest, settings);
    if (help) {
      io.stdout(formatHelp(command, args.subcommand));
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
