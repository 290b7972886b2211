/**
 * The mapping between a scenario's fields and the command's flags, built once per simulator
 * from its fields and defaults: every field has a flag, its name in kebab-case, except that
 * a nested field (an object) has one flag per leaf, its path in kebab-case (`--server-mbps`
 * sets server.mbps, `--checkpoint-server-outside-domain` checkpointServer.outsideDomain), and
 * a few fields are renamed (one module per `--policy-module` reads better than
 * `--policy-modules`). The builder gives the flag list, the overrides a set of flags makes,
 * each flag's default as its help states it, and a field's flag for messages.
 */

/** What a simulator says of its flags. */
export interface FlagSpec<Field extends string> {
  /** The scenario's fields, in order. */
  fields: readonly Field[];
  /** The defaults the flags' help states. */
  defaults: Readonly<Record<Field, unknown>>;
  /** The nested fields (objects) and their leaves, in the order of their flags. */
  nested: Readonly<Partial<Record<Field, readonly string[]>>>;
  /** Fields whose flag is not their name in kebab-case. */
  renamed?: Readonly<Partial<Record<Field, string>>>;
  /** A flag's text as the field's (or nested key's) value. */
  value: (fieldOrKey: string, text: string) => unknown;
  /** The default's text of a flag whose default is null or absent (no measured server, no trace). */
  nullText: Readonly<Record<string, string>>;
}

export interface ScenarioFlags<Field extends string> {
  /** Every flag name, for the command's option table. */
  flags: string[];
  /** The scenario fields the flags set (flag values as parseArgs gives them; a repeatable flag's as a list). */
  overrides: (flags: Record<string, unknown>) => Record<string, unknown>;
  /** Each flag's default as its help states it: the default value, written as the flag takes it. */
  defaultTexts: Readonly<Record<string, string>>;
  /** The flag of a field (for a nested field, its name in kebab-case, the prefix of its leaves' flags). */
  flagOf: (field: string) => string;
}

const kebabCase = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function scenarioFlags<Field extends string>(spec: FlagSpec<Field>): ScenarioFlags<Field> {
  const renamed = (spec.renamed ?? {}) as Record<string, string>;
  const flagOf = (field: string) => renamed[field] ?? kebabCase(field);
  // Flags of the leaves of nested fields: flag → [field, key].
  const nested: Record<string, readonly [Field, string]> = Object.fromEntries(
    (Object.entries(spec.nested) as [Field, readonly string[]][]).flatMap(([field, keys]) => keys.map((key) => [`${kebabCase(field)}-${kebabCase(key)}`, [field, key] as const])),
  );
  const direct = spec.fields.filter((field) => spec.nested[field] === undefined);
  const flags = [...direct.map(flagOf), ...Object.keys(nested)];
  const overrides = (given: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const field of spec.fields) {
      const text = given[flagOf(field)];
      if (typeof text === "string") out[field] = spec.value(field, text);
      // A repeatable flag (--policy-module) arrives as a list.
      else if (Array.isArray(text)) out[field] = text.flatMap((t) => spec.value(field, String(t)) as unknown[]);
    }
    for (const [flag, [field, key]] of Object.entries(nested)) {
      const text = given[flag];
      if (typeof text === "string") out[field] = { ...((out[field] as object) ?? {}), [key]: spec.value(key, text) };
    }
    return out;
  };
  const defaultOf = (flag: string): unknown => {
    const leaf = nested[flag];
    if (leaf === undefined) return spec.defaults[direct.find((field) => flagOf(field) === flag)!];
    return (spec.defaults[leaf[0]] as Record<string, unknown> | null)?.[leaf[1]];
  };
  const defaultTexts = Object.fromEntries(
    flags.map((flag) => {
      const value = defaultOf(flag);
      return [flag, value === null || value === undefined ? spec.nullText[flag]! : Array.isArray(value) ? value.join(",") : String(value)];
    }),
  );
  return { flags, overrides, defaultTexts, flagOf };
}

/** Flag texts as values: a comma-separated list, of numbers, a number when it reads as one. */
export const listOf = (text: string): string[] => text.split(",").map((p) => p.trim()).filter(Boolean);
export const numbersOf = (text: string): number[] => text.split(",").map((x) => Number(x.trim()));
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export const numberOrText = (text: string): number | string => (NUMBER.test(text) ? Number(text) : text);
