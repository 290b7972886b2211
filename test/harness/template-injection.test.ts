/**
 * Issue #12.5: a value substituted into a command template is one literal word whatever
 * the quotes around its placeholder, and never runs as shell code. Checked by running the
 * filled template in a real POSIX shell (dash, /bin/sh) and bash, for hostile values.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fillTemplate } from "../../pipeline/harness/fill-template";

const dir = mkdtempSync(join(tmpdir(), "ckpt-template-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const canary = join(dir, "pwned");

/** Templates that print the value between markers, with the placeholder in each quoting context. */
const TEMPLATES: [string, (v: string) => string][] = [
  ["printf '[%s]' {dir}", (v) => `[${v}]`],
  ["printf '[%s]' '{dir}'", (v) => `[${v}]`],
  ['printf \'[%s]\' "{dir}"', (v) => `[${v}]`],
  ["printf '[%s]' 'a {dir} b'", (v) => `[a ${v} b]`],
  ['printf \'[%s]\' "a {dir} b"', (v) => `[a ${v} b]`],
  ["printf '[%s]' x{dir}y", (v) => `[x${v}y]`],
  ['printf \'[%s]\' "$(printf %s "{dir}")"', (v) => `[${v}]`],
];

const HOSTILE = [
  `'; touch ${canary}; '`,
  `"; touch ${canary}; "`,
  `$(touch ${canary})`,
  `\`touch ${canary}\``,
  `\\'; touch ${canary}; #`,
  `x' "$(touch ${canary})" 'y`,
  "/nfs/with space/and'quote\"and$dollar\\back",
  "*",
  "",
];

function run(shell: string, command: string): string {
  const result = spawnSync(shell, ["-c", command], { encoding: "utf8", cwd: dir });
  expect(result.status, `${shell}: ${command}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

describe("template substitution", () => {
  it.each(["/bin/sh", "bash"])("in %s: hostile values stay one literal word in every quoting context", (shell) => {
    for (const value of HOSTILE) {
      for (const [template, expected] of TEMPLATES) {
        expect(run(shell, fillTemplate(template, { dir: value }, null)), `${template} with ${JSON.stringify(value)}`).toBe(expected(value));
      }
    }
    expect(existsSync(canary)).toBe(false);
  });

  it("holds for random printable values (fast-check, fixed seed)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."ab '\"$`\\;|&(){}*?!#~<>\n".replace("\n", "").split("")), maxLength: 12 }), fc.integer({ min: 0, max: TEMPLATES.length - 1 }), (value, t) => {
        const [template, expected] = TEMPLATES[t]!;
        return run("/bin/sh", fillTemplate(template, { dir: value }, null)) === expected(value);
      }),
      { seed: 20261124, numRuns: 150 },
    );
    expect(existsSync(canary)).toBe(false);
  });

  it("refuses values with control characters, and puts {pid} right in every context", () => {
    for (const bad of ["a\nb", "a\rb", "a\u0000b", "a\u2028b"]) expect(() => fillTemplate("x {dir}", { dir: bad }, null)).toThrow(/control character/);
    const script = (t: string) => `app_pid=4242; ${fillTemplate(t, {}, "app_pid")}`;
    expect(run("/bin/sh", script("printf '[%s]' {pid}"))).toBe("[4242]");
    expect(run("/bin/sh", script("printf '[%s]' 'pid {pid}'"))).toBe("[pid 4242]");
    expect(run("/bin/sh", script('printf \'[%s]\' "pid {pid}"'))).toBe("[pid 4242]");
  });
});
