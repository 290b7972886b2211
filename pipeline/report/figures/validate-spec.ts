/**
 * Check a spec against the official Vega-Lite JSON schema of the version we render with
 * (`vega-lite/build/vega-lite-schema.json`), as vega-lite's own examples test does with
 * Ajv. A spec that fails is a bug in its builder: the error names the figure and the
 * first offending places.
 *
 * Compiling the 2.6 MB schema takes about 1.5 s, so the build writes Ajv's standalone code
 * for it once (`dist/vega-lite-validator.js`, bin/build.js, from the schema without its
 * descriptions, which do not take part in validation), which loads in ~0.1 s; without
 * that file, or when it was made for other versions of ajv or vega-lite, the schema is
 * compiled here, once per process. The file is loaded with V8's code cache
 * (shared/code-cache.ts): every report validates at least one new spec (the measured
 * scheduler times), and the cache takes ~0.2 s off each run.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import { requireWithCodeCache } from "../../shared/code-cache";
import { projectRoot } from "../../shared/version";

let validator: ValidateFunction | undefined;
let afterFirstCall: (() => void) | undefined;

function precompiled(): ValidateFunction | undefined {
  const path = join(projectRoot(), "dist", "vega-lite-validator.js");
  if (!existsSync(path)) return undefined;
  const loaded = requireWithCodeCache(path);
  const module = loaded.exports as { default?: ValidateFunction; key?: string };
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  if (module.key !== `ajv ${version("ajv")}, vega-lite ${version("vega-lite")}`) return undefined;
  // Written after the first call, so that the cache holds what that call compiled.
  afterFirstCall = loaded.saveCache;
  return module.default;
}

function getValidator(): ValidateFunction {
  validator ??= precompiled();
  if (validator === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const schema = require("vega-lite/build/vega-lite-schema.json") as object;
    const ajv = new Ajv({ allowUnionTypes: true, strict: false, allErrors: false });
    // The schema's string formats; their content is not what we check here.
    ajv.addFormat("uri", true);
    ajv.addFormat("uri-reference", true);
    ajv.addFormat("color-hex", /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
    validator = ajv.compile(schema);
  }
  return validator;
}

export interface SpecValidation {
  valid: boolean;
  /** Human-readable problems (empty when valid). */
  errors: string[];
}

/** Validate without throwing. */
export function checkVegaLiteSpec(spec: unknown): SpecValidation {
  const validate = getValidator();
  const valid = validate(spec);
  afterFirstCall?.();
  afterFirstCall = undefined;
  if (valid) return { valid: true, errors: [] };
  return { valid: false, errors: summarise(validate.errors ?? []) };
}

/** Throw when `spec` is not valid Vega-Lite v5, naming `what` (e.g. the figure id). */
export function assertValidVegaLiteSpec(spec: unknown, what: string): void {
  const { valid, errors } = checkVegaLiteSpec(spec);
  if (!valid) {
    throw new Error(`${what}: the Vega-Lite spec does not match the Vega-Lite v5 JSON schema:\n  ${errors.join("\n  ")}`);
  }
}

/**
 * Ajv reports every branch of every `anyOf` it tried; the deepest paths are the ones that
 * point at the mistake, so show those first and drop repeats.
 */
function summarise(errors: ErrorObject[]): string[] {
  const sorted = [...errors].sort((a, b) => depth(b.instancePath) - depth(a.instancePath));
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const error of sorted) {
    const detail = error.params && "additionalProperty" in error.params ? ` "${String(error.params.additionalProperty)}"` : "";
    const line = `${error.instancePath || "(top level)"}: ${error.message ?? error.keyword}${detail}`;
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
    if (lines.length === 5) break;
  }
  return lines;
}

function depth(path: string): number {
  return path.split("/").length;
}
