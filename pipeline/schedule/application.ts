/**
 * The applications ScheduleCkpt chooses from (docs/science.md §4.1): each has an id, the computation
 * time not yet saved `pS` (p_i, seconds), the size of its checkpoint image `sizeMb` (s_i,
 * MB = 10^6 bytes) and, when several applications share a node (docs/science.md §4.6), its node.
 */
import { InputError } from "../shared/errors";

export interface Application {
  id: string;
  /** p_i: computation time not yet saved, seconds (≥ 0). */
  pS: number;
  /** s_i: checkpoint image size, MB (> 0). */
  sizeMb: number;
  /** The node the application runs on; absent when every node runs one application. */
  node?: string;
}

/**
 * Refuse applications no schedule can be computed for: no applications, an empty or
 * duplicate id, a size that is not a finite number > 0, a `p` that is negative or not
 * finite. `where(i)` names the i-th application in messages (a file and line for CSV
 * input).
 */
export function validateApplications(
  apps: readonly Application[],
  where: (index: number) => string = (index) => `application ${index + 1}`,
): void {
  if (apps.length === 0) {
    throw new InputError("no applications to schedule: expected at least one row `id,p,size_mb`");
  }
  const firstIndexOf = new Map<string, number>();
  apps.forEach((app, index) => {
    if (typeof app.id !== "string" || app.id.trim() === "") {
      throw new InputError(`${where(index)}: the id is empty; give every application a unique id`);
    }
    const previous = firstIndexOf.get(app.id);
    if (previous !== undefined) {
      throw new InputError(
        `${where(index)}: duplicate id "${app.id}" (first seen at ${where(previous)}); ids must be unique so that results can name the application`,
      );
    }
    firstIndexOf.set(app.id, index);
    if (!Number.isFinite(app.sizeMb) || app.sizeMb <= 0) {
      throw new InputError(`${where(index)}: size_mb of "${app.id}" must be a finite number > 0 (MB), found ${app.sizeMb}`);
    }
    if (!Number.isFinite(app.pS) || app.pS < 0) {
      throw new InputError(
        `${where(index)}: p of "${app.id}" (computation time not yet saved, s) must be a finite number ≥ 0, found ${app.pS}`,
      );
    }
    if (app.node !== undefined && (typeof app.node !== "string" || app.node.trim() === "")) {
      throw new InputError(`${where(index)}: the node of "${app.id}" is empty; give a node name or drop the node column`);
    }
  });
}

/** The sizes (MB) and p (s) as typed arrays, index for index, for the hot loops. */
export function applicationColumns(apps: readonly Application[]): { sizesMb: Float64Array; pS: Float64Array } {
  const sizesMb = new Float64Array(apps.length);
  const pS = new Float64Array(apps.length);
  for (let i = 0; i < apps.length; i++) {
    sizesMb[i] = apps[i]!.sizeMb;
    pS[i] = apps[i]!.pS;
  }
  return { sizesMb, pS };
}
