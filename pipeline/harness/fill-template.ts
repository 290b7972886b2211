/**
 * Fill a command template's placeholders (`{node}`, `{size_mb}`, `{dir}`, `{run_id}`,
 * `{index}`, `{pid}`) for one process, so that a value is always one literal word of the
 * command and never shell code (docs/security.md).
 *
 * The template is the user's code (like a Makefile); the values are data (folder names,
 * node names from a nodes file). Each value is quoted for the exact context its placeholder
 * sits in, found by scanning the template as a POSIX shell would:
 * - bare: single-quoted when it has any special character (`/nfs/x y` → `'/nfs/x y'`);
 * - inside '…': each `'` of the value closes the quote, adds an escaped `'` and reopens it,
 *   so `'{dir}'` stays one quoted word whatever the value;
 * - inside "…": `\`, `"`, `$` and `` ` `` are backslash-escaped.
 * Values with control characters (a newline above all) are refused: no quoting makes a
 * newline harmless in every place a command line goes (logs, batch scripts).
 * `{pid}` becomes a reference to the shell variable that holds the application's pid on the
 * node (it is only known there, once the application started).
 * @example fillTemplate("criu dump -t {pid} -D {dir}", { dir: "/nfs/x y" }, "app_pid")
 *   // 'criu dump -t "$app_pid" -D \'/nfs/x y\''
 */
import { InputError } from "../shared/errors";
import { shellQuote } from "./shell-quote";

export type TemplateValues = Partial<Record<"node" | "size_mb" | "dir" | "run_id" | "index", string>>;

type Context = "bare" | "single" | "double";

/**
 * The quoting context at each placeholder, scanning the template as a shell does: quotes,
 * backslashes, and command substitutions (`$(…)`, `` `…` ``), which start a fresh bare
 * context even inside double quotes.
 */
function placeholders(template: string): Placeholder[] {
  const found: Placeholder[] = [];
  // One entry per open command substitution: the context to return to, and how it ends.
  const stack: { context: Context; closer: ")" | "`" }[] = [];
  let context: Context = "bare";
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (context === "single") {
      if (c === "'") context = "bare";
      else if (c === "{") i = placeholderAt(template, i, context, found);
      continue;
    }
    if (c === "\\") {
      i++; // the next character is escaped (bare and in double quotes alike)
      continue;
    }
    if (c === "$" && template[i + 1] === "(") {
      stack.push({ context, closer: ")" });
      context = "bare";
      i++;
    } else if (c === "`" && stack.at(-1)?.closer === "`" && context === "bare") {
      context = stack.pop()!.context;
    } else if (c === "`") {
      stack.push({ context, closer: "`" });
      context = "bare";
    } else if (c === ")" && context === "bare" && stack.at(-1)?.closer === ")") {
      context = stack.pop()!.context;
    } else if (context === "bare" && c === "'") context = "single";
    else if (c === '"') context = context === "double" ? "bare" : "double";
    else if (c === "{") i = placeholderAt(template, i, context, found);
  }
  return found;
}

interface Placeholder {
  start: number;
  end: number;
  name: string;
  context: Context;
}

function placeholderAt(template: string, i: number, context: Context, found: Placeholder[]): number {
  const match = /^\{([^{}\s]*)\}/.exec(template.slice(i));
  if (match === null) return i;
  found.push({ start: i, end: i + match[0].length, name: match[1]!, context });
  return i + match[0].length - 1;
}

function quoteFor(value: string, context: Context): string {
  if (context === "single") return value.replace(/'/g, `'\\''`);
  if (context === "double") return value.replace(/[\\"$`]/g, (c) => `\\${c}`);
  return shellQuote(value);
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function fillTemplate(template: string, values: TemplateValues, pidVariable: string | null): string {
  let out = "";
  let last = 0;
  for (const { start, end, name, context } of placeholders(template)) {
    out += template.slice(last, start);
    last = end;
    if (name === "pid") {
      if (pidVariable === null) throw new InputError(`template uses {pid} but no application is started: ${template}`);
      out += context === "single" ? `'"$${pidVariable}"'` : context === "double" ? `$${pidVariable}` : `"$${pidVariable}"`;
      continue;
    }
    const value = values[name as keyof TemplateValues];
    if (value === undefined) throw new InputError(`template placeholder {${name}} has no value (known: {node} {pid} {size_mb} {dir} {run_id} {index})`);
    if (CONTROL.test(value)) {
      throw new InputError(`the value of {${name}} has a control character (${JSON.stringify(value)}); it cannot go into a command line — rename it`);
    }
    out += quoteFor(value, context);
  }
  return out + template.slice(last);
}
