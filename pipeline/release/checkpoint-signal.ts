/**
 * The checkpoint signal of `ckpt release --signal`: a signal the job's batch script can
 * trap (it checkpoints, then exits). KILL and STOP cannot be trapped: sending one would end
 * or freeze the job without a checkpoint, so they are refused, as are names this system
 * does not know.
 * @example checkpointSignal("SIGUSR2") // "USR2"
 */
import { constants } from "node:os";
import { InputError } from "../shared/errors";

const UNTRAPPABLE = new Set(["KILL", "STOP"]);

/** The signal's name without "SIG" (as scancel --signal and kill -s take it). */
export function checkpointSignal(text: string): string {
  const trimmed = text.trim().toUpperCase();
  const byNumber = /^\d+$/.test(trimmed) ? Object.entries(constants.signals).find(([, number]) => number === Number(trimmed))?.[0] : undefined;
  const name = (byNumber ?? trimmed).replace(/^SIG/, "");
  if (!(`SIG${name}` in constants.signals)) throw new InputError(`--signal ${text}: not a signal name or number this system knows; give the signal the jobs trap, e.g. USR2`);
  if (UNTRAPPABLE.has(name)) throw new InputError(`--signal ${text}: SIG${name} cannot be trapped, so no job could checkpoint on it (it would ${name === "KILL" ? "end" : "freeze"} the job unsaved); give the signal the jobs trap, e.g. USR2`);
  return name;
}
