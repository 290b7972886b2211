/**
 * Read an input file as text, refused in the kit's one wording (messages.ts `cannotRead`):
 * what the file is, its path, the system's reason and how to fix it.
 */
import { readFileSync } from "node:fs";
import { InputError } from "../shared/errors";
import { cannotRead } from "./messages";

/** The file's text (UTF-8); `what` names it in the message ("the scenario", "model"), `fix` says what to give instead. */
export function readInputFile(path: string, what: string, fix?: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new InputError(cannotRead(what, path, (error as Error).message, fix), { cause: error });
  }
}
