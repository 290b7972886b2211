/**
 * Fields over defaults: what an override (a scenario file, a sweep cell's parameters, the
 * command's flags) gives replaces the default, except that an object given for an object
 * merges with it field by field, so that { "server": { "model": … } } keeps the default
 * server's connections. A list is never merged into: a value given for a list field replaces
 * it whole (an object given for a list is then refused by the field's check, with what was
 * written, not a mixture of it and the default list).
 */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A copy of `defaults` with `fields` over it (the inputs are not changed). */
export function mergeFields(defaults: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(defaults);
  for (const [key, value] of Object.entries(fields)) {
    const base = out[key];
    out[key] = isRecord(value) && isRecord(base) ? mergeFields(base, value) : structuredClone(value);
  }
  return out;
}
