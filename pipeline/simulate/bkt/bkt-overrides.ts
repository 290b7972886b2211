/**
 * Scenario fields from the command line: every field of a [BKT] scenario has a flag, its
 * name in kebab-case (`--clients 20000`, `--slices-per-job 1,50`, `--transient abort`,
 * `--policies none,periodic,pckp`), and the nested ones one flag per leaf
 * (`--server-mbps`, `--server-connections`, `--server-model`, `--speed-mips-mean`, …);
 * `policyModules` is `--policy-module FILE` (repeatable, or files separated by commas).
 * Values are checked with the scenario (bkt-scenario.ts), so a bad one is refused with the
 * field's name.
 */
import { UsageError } from "../../shared/errors";
import { listOf, numberOrText, numbersOf, scenarioFlags } from "../../input/scenario-flags";
import { SERVER_MODEL_DEFAULTS } from "../server/measured-server";
import { BKT_FIELDS, BKT_PAPER_PRESET, type BktScenario } from "./bkt-scenario";

function value(field: string, text: string): unknown {
  const trimmed = text.trim();
  if (field === "policies" || field === "policyModules") return listOf(trimmed);
  if (field === "model") return trimmed;
  if (["slicesPerJob", "sliceHours", "checkpointMbit", "hostMbps"].includes(field)) return numbersOf(trimmed);
  if (field === "trace") return trimmed === "" || trimmed === "null" || trimmed === "none" ? null : trimmed;
  if (field === "downloadOnRestart") {
    if (trimmed !== "true" && trimmed !== "false") throw new UsageError(`--download-on-restart expects true or false, got "${text}"`);
    return trimmed === "true";
  }
  return numberOrText(trimmed);
}

/** The flags of a [BKT] scenario's fields: their names for the option table, the fields a set of them overrides, each one's default as its help states it. */
export const BKT_SCENARIO_FLAGS = scenarioFlags<keyof BktScenario>({
  fields: BKT_FIELDS,
  defaults: BKT_PAPER_PRESET,
  nested: { server: ["mbps", "connections", "model", "outsideDomain", "volume"], speedMips: ["mean", "sd"] },
  // One module per flag reads better.
  renamed: { policyModules: "policy-module" },
  value,
  nullText: {
    trace: "none: the two interval laws",
    // The preset's server is a link; these are a measured server's defaults (docs/science.md §6.6).
    "server-model": "none: the server's link (--server-mbps)",
    "server-outside-domain": SERVER_MODEL_DEFAULTS.outsideDomain,
    "server-volume": SERVER_MODEL_DEFAULTS.volume,
  },
});

/**
 * What each flag sets, for `ckpt simulate bkt --help` and docs/cli.md (a test checks that
 * every flag has its line): the value's form first, then what it is, with its unit.
 */
export const BKT_FLAG_HELP: Readonly<Record<string, string>> = {
  clients: "N: volatile clients M",
  jobs: "N: jobs in the bag J",
  "slices-per-job": "MIN,MAX: slices per job, discrete uniform",
  "slice-hours": "MIN,MAX: a slice's work in hours on a host of the mean speed, uniform",
  "checkpoint-mbit": "MIN,MAX: the checkpoint image after a slice, uniform, in megabits as [BKT] Table II (see --checkpoint-size-unit)",
  "checkpoint-size-unit": "Mbit|MB: the unit of --checkpoint-mbit",
  "speed-mips-mean": "X: clients' CPU speed, Normal(mean, sd) MIPS: its mean, MIPS",
  "speed-mips-sd": "X: its standard deviation, MIPS",
  "min-speed-mips": "X: speeds drawn below X MIPS are drawn again",
  "host-mbps": "MIN,MAX: clients' links, Mbit/s, uniform",
  "server-mbps": "X: the server's link, Mbit/s",
  "server-connections": "N: the server's simultaneous connections",
  "server-model": "FILE|paper: a bandwidth model written by `ckpt fit --out` (or paper, the published Azur model) as the server, in place of --server-mbps: transfers share its bw(m, V) (docs/science.md §6.6)",
  "server-outside-domain": "clamp|extrapolate|refuse: a load outside the model's fitted domain takes the bandwidth at the domain's nearest edge (clamp, the default), the model's value there, or stops the run",
  "server-volume": "whole|remaining: the model's V is the total size of the transfers in progress (the default) or what remains of them (ScheduleCkpt's fluid progression)",
  "latency-seconds": "S: network latency of a transfer, s",
  availability: "LAW: available intervals, a law as `ckpt place --law` (its time parameters in unit=s|min|h|d), or fitted:<trace>/<distribution> (the Failure Trace Archive fits of data/availability/fta-fitted-models.csv, e.g. fitted:Microsoft99/weibull)",
  unavailability: "LAW: unavailable intervals, as --availability",
  lifetime: "LAW|none: how long a client stays in the grid",
  "trace-start-days": "D: t = 0 that many days into --trace; clients follow the nodes observed then",
  transient: "suspend|abort: suspend is the project's calibration; abort is [BKT]'s literal reading (docs/science.md §6.1.4)",
  "failure-law-for-policy":
    "availability|availability-aged|lifetime|competing: the law Periodic and the DP plan with — the availability law from the copy's start (default), the same at the age of the host's current availability interval, the host's remaining lifetime, or both (docs/science.md §6.1.4)",
  "policy-module": "FILE: your own checkpoint policy, an ES module (.mjs, .js; .ts through tsx) whose default export is { name, plan(input) }, run after --policies on the same hosts (examples/policies/README.md)",
  "policy-time-limit-s": "S: the longest a module's plan may take for one copy (wall-clock); past it the run stops and names the module",
  "daly-mapping": "work|costs: Daly's period mapped on slice work or on checkpoint costs (as printed)",
  "quantum-s": "S: the DP's checkpoint costs are rounded up to quanta of S seconds",
  eq4: "consistent|as-printed: the reading of [BKT] eq. (4)",
  alpha: "A: the re-execution ratio α of the DP's objective, in (0, 1]",
  "start-state": "fresh|stationary: hosts start available, or in the availability process's equilibrium",
  "stale-copies": "run-on|abort-on-contact: copies of completed jobs keep running, or stop at their next upload",
  "download-on-restart": "true|false: a copy restarting from a checkpoint downloads its image first",
  "horizon-hours": "H: a run not finished after H hours of simulated time stops (a safety net; reported as unfinished)",
  replications: "R: runs per policy, on common random numbers",
  // Shared with das06 (simulate.ts words them for both): trace, policies, seed.
  trace: "FILE: an availability trace (FTA .tab or .avt) instead of the two interval laws",
  policies: "a list of none, periodic, pckp, young, every-slice, pckp-paper, pckp-complete",
  seed: "S: the first replication's seed",
};
