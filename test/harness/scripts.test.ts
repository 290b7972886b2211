import { describe, expect, it } from "vitest";
import { arrayScript, batchScript } from "../../pipeline/harness/batch-script";
import { fillTemplate } from "../../pipeline/harness/fill-template";
import { targetFileSystem } from "../../pipeline/harness/host-info";
import { launcherArgv } from "../../pipeline/harness/launcher-argv";
import { placeProcesses } from "../../pipeline/harness/place-processes";
import { parseProtocolLine } from "../../pipeline/harness/protocol-line";
import { parseNodesFile } from "../../pipeline/harness/read-nodes-file";
import { shellQuote } from "../../pipeline/harness/shell-quote";

describe("command templates", () => {
  it("fill placeholders with shell-quoted values, {pid} as the node-side variable", () => {
    const values = { node: "n-1", size_mb: "32", dir: "/nfs/ckpt target/run", run_id: "s.m2-s32-r1", index: "2" };
    expect(fillTemplate("cr_checkpoint --file {dir}/context.{pid} {pid}", values, "app_pid")).toBe(
      `cr_checkpoint --file '/nfs/ckpt target/run'/context."$app_pid" "$app_pid"`,
    );
    expect(fillTemplate("x {node} {size_mb} {run_id} {index}", values, null)).toBe("x n-1 32 s.m2-s32-r1 2");
    expect(() => fillTemplate("x {pid}", values, null)).toThrow(/no application/);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe("launchers", () => {
  const script = "echo 'a b'";
  it("run the script here, over a remote shell (one quoted remote command), or as a Slurm step", () => {
    expect(launcherArgv("local", "n1", script, [])).toEqual(["/bin/sh", "-c", script]);
    expect(launcherArgv("ssh", "n1", script, ["oarsh", "{node}"])).toEqual(["oarsh", "n1", `/bin/sh -c 'echo '\\''a b'\\'''`]);
    expect(launcherArgv("srun", "n1", script, [])).toEqual(["srun", "--nodes=1", "--ntasks=1", "--nodelist=n1", "--overlap", "-u", "/bin/sh", "-c", script]);
  });

  it("place one process per node first, then up to processesPerNode, with distinct labels", () => {
    expect(placeProcesses(3, "ssh", ["a", "b"], 2, "r").map((p) => [p.host, p.label])).toEqual([["a", "a"], ["b", "b"], ["a", "a.p2"]]);
    expect(placeProcesses(2, "local", [], 1, "r").map((p) => p.label)).toEqual(["local-1", "local-2"]);
    expect(() => placeProcesses(3, "ssh", ["a", "b"], 1, "r")).toThrow(/m = 3 processes but only 2 node\(s\) × 1/);
    expect(() => placeProcesses(1, "srun", [], 1, "r")).toThrow(/needs nodes; set "nodes" in the sweep or pass --nodes-file/);
  });
});

describe("protocol lines", () => {
  it("are recognised by their prefix; other lines are the process's own output", () => {
    expect(parseProtocolLine("@ckpt-harness ready")).toEqual({ kind: "ready" });
    expect(parseProtocolLine("@ckpt-harness fail no room")).toEqual({ kind: "fail", message: "no room" });
    expect(parseProtocolLine("@ckpt-harness result rc=0 start=1700000000.5 end=1700000002.25 bytes=4100 pid=42")).toEqual({
      kind: "result",
      rc: 0,
      startEpochS: 1700000000.5,
      endEpochS: 1700000002.25,
      bytes: 4100,
      pid: 42,
    });
    expect(parseProtocolLine("@ckpt-harness result rc=0 start=x")).toMatchObject({ kind: "malformed" });
    expect(parseProtocolLine("checkpoint written")).toBeNull();
  });
});

describe("nodes files and batch scripts", () => {
  it("read one host per line, keeping each once (OAR lists a node per core)", () => {
    expect(parseNodesFile("n1\nn1\n# comment\n\nn2\n", "nodes.txt")).toEqual(["n1", "n2"]);
    expect(() => parseNodesFile("n1\nbad host\n", "nodes.txt")).toThrow(/^nodes\.txt:2: expected one host name per line/);
    expect(() => parseNodesFile("\n", "nodes.txt")).toThrow(/no host names/);
  });

  it("generate OAR and Slurm scripts that resume the sweep on the reservation's nodes", () => {
    const input = { jobName: "ckpt-azur", sweepPath: "/home/u/azur.json", outDir: "/home/u/azur", nodes: 31, walltime: "4:00:00", queue: null, ckpt: ["ckpt"] };
    const oar = batchScript({ ...input, scheduler: "oar" });
    expect(oar).toContain("#OAR -l /nodes=31,walltime=4:00:00");
    expect(oar).toContain(`awk '!seen[$0]++' "\${OAR_NODE_FILE:-$OAR_NODEFILE}" > /home/u/azur/nodes.txt`);
    // oarsh where it reaches the first node, ssh otherwise (cpuset job manager off).
    expect(oar).toContain('if ! oarsh "$first_node" true </dev/null >/dev/null 2>&1; then');
    expect(oar).toContain('exec ckpt harness run /home/u/azur.json --out /home/u/azur --resume --nodes-file /home/u/azur/nodes.txt --launcher ssh --remote-shell "$remote_shell"');
    const slurm = batchScript({ ...input, scheduler: "slurm", queue: "short" });
    expect(slurm).toContain("#SBATCH --nodes=31");
    expect(slurm).toContain("#SBATCH --partition=short");
    expect(slurm).toContain('scontrol show hostnames "$SLURM_JOB_NODELIST" > /home/u/azur/nodes.txt');
    expect(slurm).toMatch(/--resume --nodes-file \/home\/u\/azur\/nodes\.txt --launcher srun\n$/);
  });
});

describe("simulation sweeps as job arrays", () => {
  const input = { jobName: "ckpt-grid", sweepPath: "/home/u/grid.json", outDir: "/home/u/grid", tasks: 3, walltime: "1:00:00", queue: null, ckpt: ["ckpt"] };

  it("Slurm: one array task per shard, the task id as the shard", () => {
    const { script, paramFile } = arrayScript({ ...input, scheduler: "slurm" });
    expect(script).toContain("#SBATCH --array=0-2");
    expect(script).toMatch(/exec ckpt simulate sweep \/home\/u\/grid\.json --out \/home\/u\/grid --quiet --shard "\$SLURM_ARRAY_TASK_ID\/3"\n$/);
    expect(paramFile).toBeNull();
  });

  it("OAR: a parameter file of shards, so that OAR's index base does not matter", () => {
    const { script, paramFile } = arrayScript({ ...input, scheduler: "oar" });
    expect(script).toContain("#OAR --array-param-file /home/u/grid/shards.txt");
    expect(script).toMatch(/--shard "\$1"\n$/);
    expect(paramFile).toBe("0/3\n1/3\n2/3\n");
  });

  it("refuses a task count it cannot write and header values with spaces", () => {
    expect(() => arrayScript({ ...input, scheduler: "slurm", tasks: 0 })).toThrow(/array tasks must be an integer from 1 to 100000, got 0/);
    expect(() => arrayScript({ ...input, scheduler: "oar", outDir: "/home/u/my grid" })).toThrow(/cannot hold spaces or control characters/);
  });
});

describe("the target's file system", () => {
  it("is the longest mount point above the folder, with its type and options (is an NFS target mounted sync?)", () => {
    const mounts = "/dev/vda / ext4 rw,relatime 0 0\nserver:/srv/ckpt /mnt/ckpt nfs rw,sync,vers=3 0 0\nserver:/srv/ckpt2 /mnt/ckpt2 nfs rw 0 0\n";
    expect(targetFileSystem("/mnt/ckpt/run-1", mounts)).toEqual({ mountPoint: "/mnt/ckpt", type: "nfs", options: ["rw", "sync", "vers=3"], device: "server:/srv/ckpt" });
    expect(targetFileSystem("/mnt/ckpt2", mounts)?.options).toEqual(["rw"]);
    expect(targetFileSystem("/mnt/ckpt-other", mounts)?.mountPoint).toBe("/");
  });
});
