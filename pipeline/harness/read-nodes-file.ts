/**
 * A nodes file: one host per line (blank lines and `#` comments ignored), as OAR's
 * `$OAR_NODE_FILE` (one line per core: repeated hosts are kept once, in order) or
 * `scontrol show hostnames` give it.
 */
import { InputError, atLine } from "../shared/errors";
import { readInputFile } from "../input/read-input";

const HOST = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;

export function parseNodesFile(text: string, where: string): string[] {
  const nodes: string[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") return;
    if (!HOST.test(line)) throw new InputError(atLine(where, i + 1, `expected one host name per line, found "${line}"`));
    if (!nodes.includes(line)) nodes.push(line);
  });
  if (nodes.length === 0) throw new InputError(`${where}: no host names in it; expected one host per line (e.g. from $OAR_NODE_FILE or scontrol show hostnames)`);
  return nodes;
}

export function readNodesFile(path: string): string[] {
  return parseNodesFile(readInputFile(path, "the nodes file"), path);
}
