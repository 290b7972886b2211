/**
 * Fill a command template's placeholders (`{node}`, `{size_mb}`, `{dir}`, `{run_id}`,
 * `{index}`, `{pid}`) for one process. Values are shell-quoted, so a folder with a space
 * stays one argument; `{pid}` becomes a reference to the shell variable that holds the
 * application's pid on the node (it is only known there, once the application started).
 * @example fillTemplate("criu dump -t {pid} -D {dir}", { dir: "/nfs/x y" }, "app_pid")
 *   // 'criu dump -t "$app_pid" -D \'/nfs/x y\''
 */
import { shellQuote } from "./shell-quote";

export type TemplateValues = Partial<Record<"node" | "size_mb" | "dir" | "run_id" | "index", string>>;

export function fillTemplate(template: string, values: TemplateValues, pidVariable: string | null): string {
  return template.replace(/\{([^{}\s]*)\}/g, (whole, name: string) => {
    if (name === "pid") {
      if (pidVariable === null) throw new Error(`template uses {pid} but no application is started: ${template}`);
      return `"$${pidVariable}"`;
    }
    const value = values[name as keyof TemplateValues];
    if (value === undefined) throw new Error(`template placeholder ${whole} has no value (known: {node} {pid} {size_mb} {dir} {run_id} {index})`);
    return shellQuote(value);
  });
}
