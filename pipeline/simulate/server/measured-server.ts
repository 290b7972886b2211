/**
 * A checkpoint server given by a measured bandwidth model (a file written by `ckpt fit`, any
 * form, or "paper" for the published Azur model), as both desktop-grid simulators take it
 * (docs/science.md §6.6): the scenario names the model and says what to do outside its fitted
 * domain; this module checks that description, loads the model and says which one it is (the
 * file and the SHA-256 of its bytes), so that every output can name it.
 *
 * - `outsideDomain`: the model was fitted on a box of (m, V); a load outside it is
 *   `"clamp"`ed to the box's nearest point (the default: the bandwidth at the domain's
 *   nearest edge), `"extrapolate"`d (the form's value there), or `"refuse"`d (the run stops,
 *   naming the load). In every mode a value ≤ 0 stops the run (docs/science.md §3.2: never
 *   divide by it).
 * - `volume`: V is the total size of the transfers in progress (`"whole"`, the default: the
 *   model's V is Σ s_i of the m checkpoints, docs/science.md §2) or their remaining size
 *   (`"remaining"`, what ScheduleCkpt's fluid progression evaluates, §4.2).
 */
import { loadModel } from "../../fit/load-model";
import { PAPER_MODEL, type BandwidthModel } from "../../fit/model";
import { sha256OfFile, sha256OfJson } from "../../shared/hash";
import { OUTSIDE_DOMAIN, type OutsideDomain } from "../../bandwidth/outside-domain";

export { OUTSIDE_DOMAIN, type OutsideDomain };
export const SERVER_VOLUMES = ["whole", "remaining"] as const;
export type ServerVolume = (typeof SERVER_VOLUMES)[number];

/** The server as a scenario gives it. */
export interface ServerModelSpec {
  /** A model file written by `ckpt fit --out`, or "paper" for the published Azur model. */
  model: string;
  outsideDomain: OutsideDomain;
  volume: ServerVolume;
}

export const SERVER_MODEL_DEFAULTS = { outsideDomain: "clamp", volume: "whole" } as const;

/** The model, loaded, with what names it in outputs. */
export interface MeasuredServer {
  model: BandwidthModel;
  /** The file as the scenario names it ("paper" for the built-in model). */
  file: string;
  /** SHA-256 of the file's bytes (of the canonical JSON of the built-in model). */
  sha256: string;
  outsideDomain: OutsideDomain;
  volume: ServerVolume;
}

/** What an output says about the server: the model's identity, form and domain, and the two choices. */
export interface MeasuredServerIdentity {
  file: string;
  sha256: string;
  name: string;
  form: string;
  domain: BandwidthModel["domain"];
  outsideDomain: OutsideDomain;
  volume: ServerVolume;
}

/**
 * What is wrong with a scenario's server model description (null when nothing): `{ "model":
 * FILE, "outsideDomain"?, "volume"? }`, with `extra` naming other keys the simulator allows.
 */
export function serverModelProblem(value: unknown, extra: readonly string[] = []): string | null {
  const shape = `{ "model": a file written by \`ckpt fit --out\` or "paper", "outsideDomain": ${OUTSIDE_DOMAIN.map((o) => `"${o}"`).join(" | ")} (default "clamp"), "volume": "whole" | "remaining" (default "whole")${extra.map((k) => `, "${k}"`).join("")} }`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return shape;
  const s = value as Record<string, unknown>;
  const unknown = Object.keys(s).filter((k) => !["model", "outsideDomain", "volume", ...extra].includes(k));
  if (unknown.length > 0) return `${shape} (unknown key ${unknown.map((k) => `"${k}"`).join(", ")})`;
  if (typeof s.model !== "string" || s.model === "") return shape;
  if (s.outsideDomain !== undefined && !(OUTSIDE_DOMAIN as readonly unknown[]).includes(s.outsideDomain)) return `${shape} (outsideDomain ${JSON.stringify(s.outsideDomain)})`;
  if (s.volume !== undefined && !(SERVER_VOLUMES as readonly unknown[]).includes(s.volume)) return `${shape} (volume ${JSON.stringify(s.volume)})`;
  return null;
}

/** The description with its defaults filled in (after `serverModelProblem` found nothing). */
export function withServerDefaults<T extends { model: string; outsideDomain?: OutsideDomain; volume?: ServerVolume }>(spec: T): T & ServerModelSpec {
  return { ...spec, outsideDomain: spec.outsideDomain ?? SERVER_MODEL_DEFAULTS.outsideDomain, volume: spec.volume ?? SERVER_MODEL_DEFAULTS.volume };
}

/** Load the model a scenario names (refused with what is wrong with the file, as `ckpt fit` would say). */
export function loadMeasuredServer(spec: ServerModelSpec): MeasuredServer {
  const model = loadModel(spec.model);
  const sha256 = spec.model === "paper" ? sha256OfJson(PAPER_MODEL) : sha256OfFile(spec.model);
  return { model, file: spec.model, sha256, outsideDomain: spec.outsideDomain, volume: spec.volume };
}

export function measuredServerIdentity(server: MeasuredServer): MeasuredServerIdentity {
  return {
    file: server.file,
    sha256: server.sha256,
    name: server.model.name,
    form: server.model.form,
    domain: { ...server.model.domain },
    outsideDomain: server.outsideDomain,
    volume: server.volume,
  };
}
