/**
 * What "the code of a stage" is, for the skip-if-unchanged decision: the module that
 * defines the stage and every project module it imports, directly or not (found by reading
 * their import/require statements), each with the hash of its content, plus the installed
 * version of every package those modules import.
 *
 * This is exact where a hand-written list would rot: editing `pipeline/fit/model.ts`
 * reruns the stages that import it and no other. It works on the TypeScript sources
 * (tsx, vitest) and on the built JavaScript (`dist/`) alike; the two give different
 * hashes, so switching between them reruns the stages once.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { sha256OfBytes } from "../shared/hash";

export interface CodeIdentity {
  /** Project file (relative to the code root, "/" separators) → sha256 of its content. */
  files: Record<string, string>;
  /** Package name → installed version ("unknown" when it cannot be read). */
  packages: Record<string, string>;
}

/** `import type` and `export type … from` are erased at run time: they are not code the stage runs. */
const IMPORT_PATTERNS = [
  /\bimport\s+(?!type\s)(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g,
  /\bexport\s+(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+["']([^"']+)["']/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
];

const EXTENSIONS = [".ts", ".js"];

/**
 * The code identity of `entry` (an absolute path). `root` is the folder the relative file
 * names are given from (the folder holding the pipeline sources, e.g. `pipeline/` or
 * `dist/pipeline/`); `projectRoot` is where `node_modules` is.
 */
export function codeIdentity(entry: string, root: string, projectRoot: string, modules: ModuleCache = new Map()): CodeIdentity {
  const files: Record<string, string> = {};
  const packages = new Set<string>();
  const stack = [resolveModuleFile(entry) ?? entry];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const module = readModule(file, modules);
    files[relative(root, file).split(sep).join("/")] = module.sha256;
    stack.push(...module.imports);
    for (const name of module.packages) packages.add(name);
  }
  const sortedFiles: Record<string, string> = {};
  for (const key of Object.keys(files).sort()) sortedFiles[key] = files[key]!;
  const versions: Record<string, string> = {};
  for (const name of [...packages].sort()) versions[name] = packageVersion(projectRoot, name);
  return { files: sortedFiles, packages: versions };
}

/**
 * What codeIdentity reads of each module file, kept across the calls of one pipeline run:
 * the stages share most of their modules (the report's 139 include the others'), and
 * reading, hashing and resolving each once instead of once per stage saves ~300 file reads.
 */
export type ModuleCache = Map<string, { sha256: string; imports: string[]; packages: string[] }>;

function readModule(file: string, modules: ModuleCache): { sha256: string; imports: string[]; packages: string[] } {
  const known = modules.get(file);
  if (known !== undefined) return known;
  const source = readFileSync(file, "utf8");
  const imports: string[] = [];
  const packages: string[] = [];
  for (const specifier of importSpecifiers(source)) {
    if (specifier.startsWith(".")) {
      const target = resolveModuleFile(resolve(dirname(file), specifier));
      if (target !== undefined && !target.endsWith(".d.ts")) imports.push(target);
    } else if (!specifier.startsWith("node:")) {
      const name = packageName(specifier);
      if (name !== undefined) packages.push(name);
    }
  }
  const module = { sha256: sha256OfBytes(source), imports, packages };
  modules.set(file, module);
  return module;
}

function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of source.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/** `./x` → `./x.ts` / `./x.js` / `./x/index.ts` / `./x/index.js`, whichever exists. */
function resolveModuleFile(path: string): string | undefined {
  const candidates = [path, ...EXTENSIONS.map((e) => path + e), ...EXTENSIONS.map((e) => join(path, `index${e}`))];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.(ts|js)$/.test(candidate)) return candidate;
  }
  // A .js specifier in TypeScript sources that points at a .ts file.
  if (path.endsWith(".js") && existsSync(`${path.slice(0, -3)}.ts`)) return `${path.slice(0, -3)}.ts`;
  return undefined;
}

function packageName(specifier: string): string | undefined {
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}

function packageVersion(projectRoot: string, name: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(projectRoot, "node_modules", name, "package.json"), "utf8")) as { version?: string };
    return manifest.version ?? "unknown";
  } catch {
    return "unknown";
  }
}
