/**
 * Slurm host lists: `n[1-3,7],login[01-02],gpu5`, `rack[1-2]-n[01-02]` ↔ the node names.
 * Ranges keep their zero padding (`[01-02]` → 01, 02); a plain comma list is a host list
 * too. Range bounds are read as big integers (a bound past 2^53 would otherwise stop the
 * counter), and a list naming more than 100,000 hosts in total is refused before any name
 * is made.
 * @example expandHostlist("n[1-3],m7") // ["n1", "n2", "n3", "m7"]
 */
import { InputError } from "../shared/errors";

/** More hosts than any cluster the hook is meant for: a list past it is a typo (`n[1-1000000]`). */
export const MAX_HOSTS = 100_000;

export function expandHostlist(list: string): string[] {
  // Every part read and counted before any name is made.
  const parts = splitTopLevel(list)
    .filter((part) => part !== "")
    .map((part) => bracketGroups(part, list));
  const total = parts.reduce((sum, groups) => sum + groups.reduce((count, group) => count * group.count, 1n), 0n);
  if (total > BigInt(MAX_HOSTS)) throw new InputError(`the host list "${list}" names more than ${MAX_HOSTS} hosts; give the nodes to release, e.g. n[1-64]`);
  return [...new Set(parts.flatMap(namesOf))];
}

/**
 * The shortest host list Slurm reads back as these names (same prefix and suffix, numbers
 * of one padding width joined into ranges); names in their order of first appearance.
 * @example compressHostlist(["n1", "n2", "n3", "m7"]) // "n[1-3],m7"
 */
export function compressHostlist(names: readonly string[]): string {
  const unique = [...new Set(names)];
  const split = unique.map((name) => /^(.*?)(\d+)$/.exec(name) as [string, string, string] | null);
  // Widths of zero-padded numbers per prefix: "10" joins "08" and "09" (width 2), as Slurm prints gpu[08-10].
  const padded = new Set(split.filter((m) => m !== null && m[2].length > 1 && m[2].startsWith("0")).map((m) => `${m![1]}\u0000${m![2].length}`));
  const groups = new Map<string, { prefix: string; width: number; numbers: bigint[] }>();
  const order: string[] = [];
  unique.forEach((name, index) => {
    const match = split[index]!;
    if (match === null) {
      order.push(`=${name}`);
      return;
    }
    const [, prefix, digits] = match;
    const width = padded.has(`${prefix}\u0000${digits.length}`) ? digits.length : 0;
    const key = `${prefix}\u0000${width}`;
    if (!groups.has(key)) {
      groups.set(key, { prefix, width, numbers: [] });
      order.push(key);
    }
    groups.get(key)!.numbers.push(BigInt(digits));
  });
  return order
    .map((key) => {
      if (key.startsWith("=")) return key.slice(1);
      const { prefix, width, numbers } = groups.get(key)!;
      // The sign of the difference (never 0: the numbers are distinct).
      const sorted = [...new Set(numbers)].sort((a, b) => Number(a - b));
      if (sorted.length === 1) return `${prefix}${String(sorted[0]).padStart(width, "0")}`;
      const ranges: string[] = [];
      for (let i = 0; i < sorted.length; ) {
        let j = i;
        // Past the end, sorted[j + 1] is undefined: never the next number.
        while (sorted[j + 1] === sorted[j]! + 1n) j++;
        const from = String(sorted[i]).padStart(width, "0");
        ranges.push(j === i ? from : `${from}-${String(sorted[j]).padStart(width, "0")}`);
        i = j + 1;
      }
      return `${prefix}[${ranges.join(",")}]`;
    })
    .join(",");
}

interface Group {
  /** The literal text, or the numbers of a bracket with their padding. */
  literal?: string;
  ranges?: { from: bigint; to: bigint; width: number }[];
  count: bigint;
}

/** `rack[1-2]-n[01-02]` → literal "rack", ranges 1-2, literal "-n", ranges 01-02. */
function bracketGroups(part: string, list: string): Group[] {
  const groups: Group[] = [];
  const pattern = /([^[\]]*)(?:\[([^[\]]*)\])?/y;
  let at = 0;
  while (at < part.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(part)!;
    if (match[0] === "") throw new InputError(`cannot read the host list "${list}" at "${part}"; write e.g. n[1-3],m7`);
    const [, literal, inside] = match;
    if (/\s/.test(literal!)) throw new InputError(`cannot read the host list "${list}" at "${part}": a host name has no spaces; write e.g. n[1-3],m7`);
    groups.push({ literal: literal!, count: 1n });
    if (inside !== undefined) groups.push(rangesOf(inside, list));
    at += match[0].length;
  }
  return groups;
}

function rangesOf(inside: string, list: string): Group {
  const ranges: { from: bigint; to: bigint; width: number }[] = [];
  let count = 0n;
  for (const range of inside.split(",")) {
    const bounds = /^(\d+)(?:-(\d+))?$/.exec(range.trim());
    if (bounds === null) throw new InputError(`cannot read the range "${range}" in the host list "${list}"; write e.g. n[1-3,7]`);
    const [from, to] = [BigInt(bounds[1]!), BigInt(bounds[2] ?? bounds[1]!)];
    if (to < from) throw new InputError(`the range "${range}" in the host list "${list}" goes down; write it low-high`);
    ranges.push({ from, to, width: bounds[1]!.length });
    count += to - from + 1n;
  }
  return { ranges, count };
}

/** Every name of one comma-separated part: the product of its groups (its size is checked before). */
function namesOf(groups: readonly Group[]): string[] {
  let names = [""];
  for (const group of groups) {
    if (group.literal !== undefined) {
      names = names.map((name) => name + group.literal);
      continue;
    }
    const values: string[] = [];
    for (const { from, to, width } of group.ranges!) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only, the BigInt loop below makes the same names.
      if (to <= BigInt(Number.MAX_SAFE_INTEGER)) for (let k = Number(from); k <= Number(to); k++) values.push(String(k).padStart(width, "0"));
      else for (let k = from; k <= to; k++) values.push(String(k).padStart(width, "0"));
    }
    names = names.flatMap((name) => values.map((value) => name + value));
  }
  return names;
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
