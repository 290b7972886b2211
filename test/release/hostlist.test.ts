import { describe, expect, it } from "vitest";
import { compressHostlist, expandHostlist, MAX_HOSTS } from "../../pipeline/release/hostlist";

describe("Slurm host lists", () => {
  it("expand ranges with their padding, lists, single hosts and several bracket groups", () => {
    expect(expandHostlist("n[1-3],m7")).toEqual(["n1", "n2", "n3", "m7"]);
    expect(expandHostlist("gpu[08-10,12]-ib")).toEqual(["gpu08-ib", "gpu09-ib", "gpu10-ib", "gpu12-ib"]);
    expect(expandHostlist("rack[1-2]-n[01-02]")).toEqual(["rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02"]);
    expect(expandHostlist("a,b,a")).toEqual(["a", "b"]);
    expect(() => expandHostlist("n[3-1]")).toThrow(/goes down/);
    expect(() => expandHostlist("n[1-x]")).toThrow(/cannot read the range/);
    expect(() => expandHostlist("n[1-3")).toThrow(/cannot read the host list/);
  });

  it("read bounds past 2^53 exactly instead of looping on them", () => {
    // 2^53 + 1 is not a double: a Number counter would stop at 2^53 and never pass it.
    expect(expandHostlist("n[9007199254740992-9007199254740993]")).toEqual(["n9007199254740992", "n9007199254740993"]);
    expect(expandHostlist("n[9007199254740992]")).toEqual(["n9007199254740992"]);
  });

  it("refuse more than 100,000 hosts in total, not per range, before making any name", () => {
    expect(expandHostlist(`n[1-${MAX_HOSTS}]`)).toHaveLength(MAX_HOSTS);
    expect(() => expandHostlist(`n[1-60000],m[1-60000]`)).toThrow(/names more than 100000 hosts/);
    expect(() => expandHostlist("n[1-1000],m[1-1000]-x[1-1000]")).toThrow(/names more than 100000 hosts/);
    expect(() => expandHostlist("n[0-99999999999999999999]")).toThrow(/names more than 100000 hosts/);
  });

  it("read spaces around parts and ranges, refuse them inside a name, count the hosts exactly", () => {
    expect(expandHostlist(" n1, m2 ")).toEqual(["n1", "m2"]);
    expect(expandHostlist("n[1, 3]")).toEqual(["n1", "n3"]);
    expect(() => expandHostlist("n 1")).toThrow(/a host name has no spaces/);
    expect(() => expandHostlist("n[x3]")).toThrow(/cannot read the range "x3"/);
    // 100,000 + 1 names: one past the limit (n[1-100000] alone is allowed, above).
    expect(() => expandHostlist(`n[1-${MAX_HOSTS}],m1`)).toThrow(/names more than 100000 hosts/);
    // Zero padding past 2^53, where the names are made with BigInt.
    expect(expandHostlist("n[09007199254740992-09007199254740993]")).toEqual(["n09007199254740992", "n09007199254740993"]);
  });

  it("give no name for a list of separators (the command refuses it)", () => {
    expect(expandHostlist(",")).toEqual([]);
    expect(expandHostlist(" , ,")).toEqual([]);
  });

  it("compress back to a list Slurm reads as the same names", () => {
    expect(compressHostlist(["n1", "n2", "n3", "m7"])).toBe("n[1-3],m7");
    expect(compressHostlist(["n1", "n3", "n2", "n9", "n10"])).toBe("n[1-3,9-10]");
    expect(compressHostlist(["gpu08", "gpu09", "gpu10", "login"])).toBe("gpu[08-10],login");
    expect(compressHostlist(["n4"])).toBe("n4");
    for (const names of [["n1", "n2", "n3", "m7"], ["gpu08", "gpu09", "gpu10", "login"], ["a1", "a01", "a2"]]) {
      expect(new Set(expandHostlist(compressHostlist(names)))).toEqual(new Set(names));
    }
  });
});
