/**
 * Paths in stage parameters are relative to the project root (so a parameter reads the
 * same on every machine); files are opened relative to the working directory. This maps
 * one to the other, and keeps the result relative so no machine path reaches an output.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { projectRoot } from "../shared/version";

export function projectPath(path: string): string {
  return isAbsolute(path) ? path : relative(process.cwd(), resolve(projectRoot(), path)) || ".";
}
