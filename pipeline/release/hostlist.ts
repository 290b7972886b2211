/**
 * Slurm host lists: `n[1-3,7],login[01-02],gpu5` ↔ the node names. Ranges keep their zero
 * padding (`[01-02]` → 01, 02); a plain comma list is a host list too.
 * @example expandHostlist("n[1-3],m7") // ["n1", "n2", "n3", "m7"]
 */
import { InputError } from "../shared/errors";

export function expandHostlist(list: string): string[] {
  const names: string[] = [];
  for (const part of splitTopLevel(list.trim())) {
    if (part === "") continue;
    const match = /^([^[\]]*)\[([^\]]+)\]([^[\]]*)$/.exec(part);
    if (match === null) {
      if (/[[\]\s]/.test(part)) throw new InputError(`cannot read the host list "${list}" at "${part}"; write e.g. n[1-3],m7`);
      names.push(part);
      continue;
    }
    const [, prefix, ranges, suffix] = match;
    for (const range of ranges!.split(",")) {
      const bounds = /^(\d+)(?:-(\d+))?$/.exec(range.trim());
      if (bounds === null) throw new InputError(`cannot read the range "${range}" in the host list "${list}"; write e.g. n[1-3,7]`);
      const [from, to] = [bounds[1]!, bounds[2] ?? bounds[1]!];
      if (Number(to) < Number(from)) throw new InputError(`the range "${range}" in the host list "${list}" goes down; write it low-high`);
      if (Number(to) - Number(from) > 100_000) throw new InputError(`the range "${range}" in the host list "${list}" names more than 100000 hosts`);
      for (let k = Number(from); k <= Number(to); k++) names.push(`${prefix}${String(k).padStart(from.length, "0")}${suffix}`);
    }
  }
  return [...new Set(names)];
}

/** Split on commas outside brackets. */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of list) {
    if (c === "[") depth++;
    if (c === "]") depth--;
    if (c === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else current += c;
  }
  parts.push(current.trim());
  return parts;
}
