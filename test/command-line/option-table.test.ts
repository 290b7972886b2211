/** The option table: parsing and checking a command line, and the help written from it. */
import { describe, expect, it } from "vitest";
import { formatHelp, formatMarkdown } from "../../pipeline/command-line/command-help";
import { UsageError } from "../../pipeline/shared/errors";
import { parseOptions, type OptionTable } from "../../pipeline/command-line/option-table";

const TABLE = {
  model: { kind: "string", required: true, value: "<file|paper>", help: "the model" },
  k0: { kind: "integer", min: 0, default: 2, help: "depth" },
  alpha: { kind: "number", default: 1, help: "share" },
  seed: { kind: "integer", help: "seed" },
  criterion: { kind: "choice", choices: ["p", "density"], default: "p", help: "order" },
  sizes: { kind: "numbers", help: "sizes in MB" },
  k0s: { kind: "integers", min: 0, default: [0, 1, 2], help: "depths" },
  parts: { kind: "strings", choices: ["A", "B"], repeatable: true, help: "parts" },
  param: { kind: "assignments", help: "overrides" },
  json: { kind: "flag", help: "print JSON" },
} as const satisfies OptionTable;

const usage = (argv: string[]) => {
  try {
    parseOptions(TABLE, argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${argv.join(" ")}`);
};

describe("parseOptions", () => {
  it("gives typed values, the defaults for what is absent, and which options were given", () => {
    const { values, given, positionals, help } = parseOptions(TABLE, ["--model", "paper", "--k0", "3", "--sizes", "105, 451", "--parts", "A", "--parts", "B,A", "--param", "a=1", "--param", "b=x", "--json"]);
    expect(values).toEqual({
      model: "paper",
      k0: 3,
      alpha: 1,
      seed: undefined,
      criterion: "p",
      sizes: [105, 451],
      k0s: [0, 1, 2],
      parts: ["A", "B", "A"],
      param: ["a=1", "b=x"],
      json: true,
    });
    expect([...given].sort()).toEqual(["json", "k0", "model", "param", "parts", "sizes"]);
    expect(positionals).toEqual([]);
    expect(help).toBe(false);
  });

  it("refuses malformed values, unknown options and missing required ones as usage errors", () => {
    expect(usage(["--model", "m", "--k0", "x"])).toBe('--k0 expects a whole number ≥ 0, got "x"');
    expect(usage(["--model", "m", "--k0", "1.5"])).toBe("--k0 expects a whole number ≥ 0, got 1.5");
    expect(usage(["--model", "m", "--k0=-1"])).toBe("--k0 expects a whole number ≥ 0, got -1");
    expect(usage(["--model", "m", "--alpha", ""])).toBe('--alpha expects a number, got ""');
    expect(usage(["--model", "m", "--alpha", "Infinity"])).toBe('--alpha expects a number, got "Infinity"');
    expect(usage(["--model", "m", "--criterion", "size"])).toBe('--criterion must be one of p, density; got "size"');
    expect(usage(["--model", "m", "--sizes", "105,abc"])).toBe('--sizes: item 2 ("abc") is not a number');
    expect(usage(["--model", "m", "--k0s", "0,-1"])).toBe('--k0s: item 2 ("-1") is not a whole number ≥ 0');
    expect(usage(["--model", "m", "--parts", "C"])).toBe('--parts must be one of A, B; got "C"');
    expect(usage(["--model", "m", "--parts", ","])).toBe("--parts needs at least one value");
    expect(usage(["--k0", "1"])).toBe("missing required option --model");
    expect(usage(["--model", "m", "--bogus"])).toMatch(/Unknown option '--bogus'/);
    expect(usage(["--model", "m", "extra"])).toMatch(/Unexpected argument 'extra'/);
  });

  it("reads a choice's aliases as the choice they name, lists them in refusals and in the help", () => {
    const table = { domain: { kind: "choice", choices: ["refuse", "extrapolate"], aliases: { strict: "refuse", warn: "extrapolate" }, default: "refuse", help: "policy" } } as const satisfies OptionTable;
    expect(["strict", "refuse", "warn", "extrapolate"].map((word) => parseOptions(table, ["--domain", word]).values.domain)).toEqual(["refuse", "refuse", "extrapolate", "extrapolate"]);
    expect(() => parseOptions(table, ["--domain", "clamp"])).toThrow(new UsageError('--domain must be one of refuse (alias strict), extrapolate (alias warn); got "clamp"'));
    // An alias names a word, not a key of the object: "constructor" is no choice.
    expect(() => parseOptions(table, ["--domain", "constructor"])).toThrow(/got "constructor"/);
    const text = { name: "demo", title: "a demo", usage: ["ckpt demo"], options: table };
    expect(formatHelp(text).replace(/\s+/g, " ")).toContain("--domain refuse|extrapolate policy (accepts refuse (alias strict) | extrapolate (alias warn); default: refuse)");
    expect(formatMarkdown(text)).toContain("| `--domain refuse\\|extrapolate` | refuse | policy; accepts refuse (alias strict) \\| extrapolate (alias warn) |");
  });

  it("asks for nothing when --help is given", () => {
    expect(parseOptions(TABLE, ["--help"]).help).toBe(true);
    expect(parseOptions(TABLE, ["-h"]).help).toBe(true);
  });

  it("takes a subcommand first and refuses options that do not apply to it", () => {
    const table = {
      out: { kind: "string", for: ["run", "status"], required: true, help: "folder" },
      shard: { kind: "string", for: ["run"], default: "0/1", help: "shard" },
      json: { kind: "flag", help: "JSON" },
    } as const satisfies OptionTable;
    const settings = { subcommands: ["run", "status", "plan"], command: "demo" };
    const parsed = parseOptions(table, ["run", "spec.json", "--out", "x"], settings);
    expect(parsed).toMatchObject({ subcommand: "run", positionals: ["spec.json"], values: { out: "x", shard: "0/1", json: false } });
    // Not required where it does not apply.
    expect(parseOptions(table, ["plan", "--json"], settings).values.out).toBeUndefined();
    expect(() => parseOptions(table, ["status", "--out", "x", "--shard", "1/2"], settings)).toThrow('--shard does not apply to "ckpt demo status" (it takes --out, --json)');
    expect(() => parseOptions(table, ["status"], settings)).toThrow("missing required option --out");
    expect(() => parseOptions(table, ["merge"], settings)).toThrow('unknown subcommand "merge": run, status, plan');
    expect(() => parseOptions(table, [], settings)).toThrow("expected a subcommand: run, status, plan");
  });
});

describe("the help written from the table", () => {
  const command = { name: "demo", title: "a demonstration", usage: ["ckpt demo --model <file|paper> [options]"], options: TABLE, notes: "Example:\n  ckpt demo --model paper" };

  it("lists every option with its placeholder, default and facts, in the terminal and in markdown", () => {
    const help = formatHelp(command);
    expect(help).toMatch(/^ckpt demo — a demonstration\n\nUsage:\n  ckpt demo --model <file\|paper> \[options\]\n\nOptions:\n/);
    expect(help).toMatch(/^  --model <file\|paper> +the model \(required\)$/m);
    expect(help).toMatch(/^  --k0 <n> +depth \(default: 2\)$/m);
    expect(help).toMatch(/^  --criterion p\|density +order \(default: p\)$/m);
    expect(help).toMatch(/^  --k0s <x,y,…> +depths \(default: 0,1,2\)$/m);
    expect(help).toMatch(/^  --parts <A\|B,…> +parts \(repeatable\)$/m);
    expect(help).toMatch(/^  -h, --help +this text$/m);
    expect(help.endsWith("Example:\n  ckpt demo --model paper")).toBe(true);
    for (const line of help.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
    const markdown = formatMarkdown(command);
    expect(markdown).toContain("| `--criterion p\\|density` | p | order |");
    expect(markdown).toContain("| `--model <file\\|paper>` | required | the model |");
  });
});

describe("a subcommand with a help of its own", () => {
  const table = {
    out: { kind: "string", for: ["run", "plan"], help: "run: the folder; plan: the file", inSubcommand: { run: { help: "the folder", value: "<dir>" } } },
    seed: { kind: "string", for: ["run"], group: "Run fields", value: "S", defaultText: "1", help: "the seed" },
    json: { kind: "flag", help: "JSON" },
  } as const satisfies OptionTable;
  const command = {
    name: "demo",
    title: "a demonstration",
    usage: ["ckpt demo run|plan [options]"],
    options: table,
    subcommandHelp: { run: { title: "run it", usage: ["ckpt demo run [--seed S]"], notes: "Example:\n  ckpt demo run --seed 2" } },
  };

  it("is chosen by --help after the subcommand, and lists only its options, in its own words", () => {
    expect(parseOptions(table, ["run", "--help"], { subcommands: ["run", "plan"] })).toMatchObject({ help: true, subcommand: "run" });
    expect(parseOptions(table, ["--help"], { subcommands: ["run", "plan"] }).subcommand).toBeUndefined();
    const help = formatHelp(command, "run");
    expect(help).toMatch(/^ckpt demo run — run it\n\nUsage:\n  ckpt demo run \[--seed S\]\n/);
    expect(help).toMatch(/^  --out <dir> +the folder$/m);
    expect(help).toMatch(/^Run fields:\n  --seed S +the seed \(default: 1\)$/m);
    expect(help).toMatch(/^  --json +JSON$/m);
    expect(help.endsWith("Example:\n  ckpt demo run --seed 2")).toBe(true);
  });

  it("leaves the command's help the options only it takes, and says where they are", () => {
    const help = formatHelp(command);
    expect(help).not.toContain("--seed");
    expect(help).toMatch(/^  --out .*\(run, plan\) run: the folder; plan: the file$/m);
    expect(help).toContain("run has a help of its own, with its options: ckpt demo run --help.");
    const markdown = formatMarkdown(command);
    expect(markdown).toMatch(/^## ckpt demo\n/);
    expect(markdown).toMatch(/^### ckpt demo run\n\nRun it\.\n/m);
    expect(markdown).toContain("| `--seed S` | 1 | the seed |");
  });
});
