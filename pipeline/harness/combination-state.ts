/**
 * The persistent state of each combination of a sweep: one small JSON file per
 * combination under `<out>/state/`, replaced atomically on every transition
 *
 *     todo ──claim──▶ running ──▶ done | failed
 *       ▲                │
 *       └── lease dead ──┘   (runner killed: the next --resume takes it again)
 *
 * A missing file means todo. `running` carries the runner's lease; `done` names the
 * attempt folder whose trace it vouches for, written before the state (so a crash between
 * the two leaves `running`, which is redone, never a `done` without its trace).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomic } from "../shared/atomic-write";
import type { Lease } from "./lease";

export type CombinationStatus = "todo" | "running" | "done" | "failed";

export interface CombinationState {
  schema: "ckpt-lab/harness-state@1";
  id: string;
  status: CombinationStatus;
  /** How many times a run of this combination was started. */
  attempts: number;
  /** While running: whose it is and until when. */
  lease: Lease | null;
  /** The attempt folder (relative to the sweep folder) of the last attempt. */
  runFolder: string | null;
  /** Why the last attempt failed (or was abandoned). */
  reason: string | null;
  updatedAt: string;
}

export function stateDir(outDir: string): string {
  return join(outDir, "state");
}

function statePath(outDir: string, id: string): string {
  return join(stateDir(outDir), `${id}.json`);
}

export function initialState(id: string): CombinationState {
  return { schema: "ckpt-lab/harness-state@1", id, status: "todo", attempts: 0, lease: null, runFolder: null, reason: null, updatedAt: new Date(0).toISOString() };
}

/** Read one combination's state; a missing or unreadable file is todo. */
export function readCombinationState(outDir: string, id: string): CombinationState {
  try {
    const value = JSON.parse(readFileSync(statePath(outDir, id), "utf8")) as CombinationState;
    if (value.id === id && ["todo", "running", "done", "failed"].includes(value.status)) return value;
  } catch {
    // Missing: never started. Unreadable cannot happen with atomic writes; treat as todo.
  }
  return initialState(id);
}

export function writeCombinationState(outDir: string, state: CombinationState): CombinationState {
  const stamped = { ...state, updatedAt: new Date().toISOString() };
  writeJsonAtomic(statePath(outDir, state.id), stamped);
  return stamped;
}

/** Every combination's state, in the order of `ids`. */
export function readAllStates(outDir: string, ids: readonly string[]): CombinationState[] {
  let present: Set<string>;
  try {
    present = new Set(readdirSync(stateDir(outDir)));
  } catch {
    present = new Set();
  }
  return ids.map((id) => (present.has(`${id}.json`) ? readCombinationState(outDir, id) : initialState(id)));
}
