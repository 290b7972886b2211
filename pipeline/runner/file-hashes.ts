/**
 * Content hashes of the files the runner checks (traces, kept simulation results, artifacts,
 * the previous run's outputs), remembered across runs by what `stat` says of each file, as
 * git's index does: a file whose size, modification time (ns), inode and device are those
 * recorded with its hash is not read again. A run that changes nothing then stats ~350
 * files instead of reading and hashing ~30 MB (~0.2 s of a ~0.5 s no-op run).
 *
 * Only the content decides (stage-record.ts); this is a cache of it, never a substitute: a
 * file whose stat differs in any way is hashed again. An edit that keeps the size and falls
 * within the file system's timestamp granularity of the write before it would keep its
 * time ("racy" in git's words), so a hash read from a file is remembered only if the file
 * was last modified more than RACY_SECONDS before it was hashed. A file the runner wrote
 * itself (`record`, with the hash of the bytes it wrote) sits in the build folder, which
 * nothing else writes until it is swapped in after `save`: its hash is remembered when its
 * time is older than the file system's clock at `save` (read from a probe file written
 * then), since any later edit gets a later time; so a rerun right after a run reads nothing.
 *
 * Kept in `<out>/.cache/file-hashes.json`; a missing or unreadable cache costs time only.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic, type AtomicWriteOptions } from "../shared/atomic-write";
import { sha256OfFile } from "../shared/hash";

/** Above the coarsest timestamp granularity of common file systems (FAT: 2 s). */
const RACY_SECONDS = 3;

interface Entry {
  size: number;
  /** Modification time in ns, as a decimal string (beyond a double's exact integers). */
  mtimeNs: string;
  ino: string;
  dev: string;
  sha256: string;
}

type Entries = Record<string, Entry>;

const SCHEMA = "ckpt-lab/file-hashes@1";

export class FileHashes {
  private readonly current: Entries = {};
  /** Files the runner wrote in this run, remembered by `save` if the clock has moved on since. */
  private readonly written: Entries = {};

  private constructor(
    private readonly previous: Entries,
    /** The kept file's text, so that an unchanged cache is not written again. */
    private readonly keptText: string,
  ) {}

  /** The cache kept at `path`; empty when there is none or it cannot be read. */
  static load(path: string): FileHashes {
    if (!existsSync(path)) return new FileHashes({}, "");
    try {
      const text = readFileSync(path, "utf8");
      const kept = JSON.parse(text) as { schema?: string; files?: Entries };
      return new FileHashes(kept.schema === SCHEMA && typeof kept.files === "object" && kept.files !== null ? kept.files : {}, text);
    } catch {
      return new FileHashes({}, "");
    }
  }

  /**
   * The sha256 of the file at `path` (which must exist). `key` names it in the cache
   * (default: the path); files in the output folder pass their path in it, which stays the
   * same while the folder is rebuilt under another name.
   */
  sha256(path: string, key = path): string {
    const stat = this.entryOf(path);
    const known = this.current[key] ?? this.previous[key];
    if (known !== undefined && known.size === stat.size && known.mtimeNs === stat.mtimeNs && known.ino === stat.ino && known.dev === stat.dev) {
      this.current[key] = known;
      return known.sha256;
    }
    const sha256 = sha256OfFile(path);
    const ageNs = BigInt(Date.now()) * 1_000_000n - BigInt(stat.mtimeNs);
    if (ageNs > BigInt(RACY_SECONDS) * 1_000_000_000n) this.current[key] = { ...stat, sha256 };
    return sha256;
  }

  /** The runner wrote `sha256`'s bytes to `path` (`key` as for `sha256`). */
  record(path: string, key: string, sha256: string): void {
    const entry = { ...this.entryOf(path), sha256 };
    this.written[key] = entry;
    this.current[key] = entry;
  }

  private entryOf(path: string): Omit<Entry, "sha256"> {
    const stats = statSync(path, { bigint: true });
    return { size: Number(stats.size), mtimeNs: stats.mtimeNs.toString(), ino: stats.ino.toString(), dev: stats.dev.toString() };
  }

  /** Keep the hashes used in this run (only those: files no longer checked drop out). */
  save(path: string, options: AtomicWriteOptions = {}): void {
    // Named like atomic-write's temporaries, so that one left by a crash is cleaned up (output-folder.ts).
    const probe = join(dirname(path), `.${basename(path)}.clock.${process.pid}.0.tmp`);
    writeFileSync(probe, "");
    const clockNs = statSync(probe, { bigint: true }).mtimeNs;
    rmSync(probe, { force: true });
    const files: Entries = {};
    for (const key of Object.keys(this.current).sort()) {
      const entry = this.current[key]!;
      if (this.written[key] !== entry || BigInt(entry.mtimeNs) < clockNs) files[key] = entry;
    }
    const text = `${JSON.stringify({ schema: SCHEMA, files }, null, 2)}\n`;
    if (text !== this.keptText) writeFileAtomic(path, text, options);
  }
}
