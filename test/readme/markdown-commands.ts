/**
 * The command blocks of the user-facing documents, and how their sample outputs are
 * compared with what the commands print (readme-commands.test.ts runs them).
 *
 * A command block is a fence tagged `sh`. The fence right after it (only blank lines
 * between) that has no tag is its sample output. An HTML comment on the line before a
 * command block (blank lines allowed between) says how the test treats it, in words a
 * reader of the rendered page never sees:
 *
 *     <!-- not run by the README test: <why> -->            not run; the reason is required
 *     <!-- run by the README test next to the clone's data/ -->
 *                                                           run in a folder where data/ is the clone's
 *
 * Any other comment there that names the README test is an error, so a typo cannot skip a
 * block silently. Other fences (`csv`, `json`, `bash` for a job script's content, `text`)
 * are not commands.
 *
 * A sample output is compared line by line with what the block printed (stdout and stderr
 * as a terminal shows them, interleaved; trailing spaces and trailing blank lines ignored):
 *
 * - a line that is only `…`, or a note in parentheses that starts with `…`
 *   (`(… one line per application, then on stderr:)`), stands for any number of lines,
 *   none included;
 * - in any other line, `…` stands for any text within that line: a time (`in … s`), the
 *   rest of a long line (`note: the papers' rule …`);
 * - everything else must be printed exactly.
 */

export interface CommandBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The commands, as written. */
  script: string;
  /** How the test treats it. */
  mode: { run: true; cloneData: boolean } | { run: false; reason: string };
  /** The sample output that follows it, if any. */
  output: { line: number; text: string } | null;
}

const FENCE = /^```(\S*)\s*$/;
const COMMENT = /^<!--\s*(.*?)\s*-->$/;
const NOT_RUN = /^not run by the README test:\s*(\S.*)$/;
const CLONE_DATA = "run by the README test next to the clone's data/";

/** Every `sh` block of a markdown text, with its marker and its sample output. */
export function commandBlocks(markdown: string, file: string): CommandBlock[] {
  const lines = markdown.split("\n");
  const blocks: CommandBlock[] = [];
  const fenceAt = (i: number) => FENCE.exec(lines[i] ?? "");
  for (let i = 0; i < lines.length; i++) {
    const open = fenceAt(i);
    if (open === null) continue;
    let close = i + 1;
    while (close < lines.length && lines[close]!.trim() !== "```") close++;
    if (close === lines.length) throw new Error(`${file}:${i + 1}: a fence that does not close`);
    if (open[1] === "sh") {
      const script = lines.slice(i + 1, close).join("\n");
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === "") before--;
      const comment = COMMENT.exec(lines[before]?.trim() ?? "");
      let mode: CommandBlock["mode"] = { run: true, cloneData: false };
      if (comment !== null && /README test/i.test(comment[1]!)) {
        const notRun = NOT_RUN.exec(comment[1]!);
        if (notRun) mode = { run: false, reason: notRun[1]! };
        else if (comment[1] === CLONE_DATA) mode = { run: true, cloneData: true };
        else throw new Error(`${file}:${before + 1}: a README-test marker the test does not know: "${comment[1]}" (see test/readme/markdown-commands.ts)`);
      }
      let after = close + 1;
      while (after < lines.length && lines[after]!.trim() === "") after++;
      let output: CommandBlock["output"] = null;
      if (fenceAt(after)?.[1] === "") {
        let end = after + 1;
        while (end < lines.length && lines[end]!.trim() !== "```") end++;
        output = { line: after + 1, text: lines.slice(after + 1, end).join("\n") };
        close = end;
      }
      blocks.push({ line: i + 1, script, mode, output });
    }
    i = close;
  }
  return blocks;
}

/** Whether an expected line stands for any number of lines. */
const isGap = (line: string) => {
  const text = line.trim();
  return text === "…" || (text.startsWith("(…") && text.endsWith(")"));
};

/** An expected line as a pattern: literal text, each `…` any text within the line. */
function linePattern(line: string): RegExp {
  return new RegExp(`^${line.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
}

const trimLines = (text: string) => {
  const lines = text.split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/** Whether `actual` is what `expected` shows, under the convention above. */
export function matchesSample(expected: string, actual: string): boolean {
  const want = trimLines(expected);
  const got = trimLines(actual);
  const patterns = want.map((line) => (isGap(line) ? null : linePattern(line)));
  const memo = new Map<number, boolean>();
  const match = (i: number, j: number): boolean => {
    const key = i * (got.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === want.length) result = j === got.length;
    else if (patterns[i] === null) result = match(i + 1, j) || (j < got.length && match(i, j + 1));
    else result = j < got.length && patterns[i]!.test(got[j]!) && match(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}
