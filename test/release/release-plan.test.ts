import { describe, expect, it } from "vitest";
import { expandHostlist } from "../../pipeline/release/hostlist";
import { planRelease } from "../../pipeline/release/release-plan";
import { resolveScheduleOptions } from "../../pipeline/schedule";
import { constantModel } from "../schedule/models";

describe("Slurm host lists", () => {
  it("expand ranges with their padding, lists and single hosts", () => {
    expect(expandHostlist("n[1-3],m7")).toEqual(["n1", "n2", "n3", "m7"]);
    expect(expandHostlist("gpu[08-10,12]-ib")).toEqual(["gpu08-ib", "gpu09-ib", "gpu10-ib", "gpu12-ib"]);
    expect(expandHostlist("a,b,a")).toEqual(["a", "b"]);
    expect(() => expandHostlist("n[3-1]")).toThrow(/goes down/);
    expect(() => expandHostlist("n[1-x]")).toThrow(/cannot read the range/);
  });
});

describe("the release planner", () => {
  const job = (jobId: string, node: string, sizeMb: number, startedAtS: number, lastCheckpointAtS: number | null = null) =>
    ({ jobId, name: null, user: null, nodes: [node], startedAtS, lastCheckpointAtS, sizeMb, sizeSource: "requested" as const });

  it("takes p from the start or the last checkpoint, plans waves per node, and says what is lost", () => {
    // 100 MB/s whatever the load: wave 1 (n1's 300 MB and n2's 200 MB) ends at 5 s, wave 2 would need 5 s more.
    const plan = planRelease(
      { rm: "slurm", nowS: 1000, deadlineS: 7, nodes: ["n1", "n2"], jobs: [job("1", "n1", 300, 400), job("2", "n1", 500, 100), job("3", "n2", 200, 0, 900)] },
      resolveScheduleOptions({ model: constantModel(100), deadlineS: 7 }),
    );
    expect(plan.jobs.map((j) => [j.jobId, j.unsavedS, j.wave, j.decision])).toEqual([
      ["1", 600, 1, "checkpoint"],
      ["2", 900, 2, "lose"],
      ["3", 100, 1, "checkpoint"],
    ]);
    expect(plan.jobs[0]!.finishS).toBeCloseTo(5, 9);
    expect([plan.savedS, plan.lostS]).toEqual([700, 900]);
  });

  it("refuses a deadline that has passed", () => {
    expect(() => planRelease({ rm: "slurm", nowS: 0, deadlineS: 0, nodes: [], jobs: [] }, resolveScheduleOptions({ model: constantModel(100), deadlineS: 1 }))).toThrow(/deadline must be in the future/);
  });
});
