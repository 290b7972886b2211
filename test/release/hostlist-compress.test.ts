import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compressHostlist, expandHostlist } from "../../pipeline/release/hostlist";

/**
 * The host list of a set of node numbers, made by walking the integer line from the smallest
 * to the largest number (a range opens where k is in the set and k − 1 is not, and closes
 * where k + 1 is not): a brute force that neither sorts nor compares neighbours in a list,
 * unlike compressHostlist.
 */
function rangesByScan(prefix: string, numbers: ReadonlySet<number>): string {
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const ranges: string[] = [];
  let open: number | null = null;
  for (let k = min; k <= max + 1; k++) {
    if (numbers.has(k) && open === null) open = k;
    if (!numbers.has(k) && open !== null) {
      ranges.push(open === k - 1 ? `${open}` : `${open}-${k - 1}`);
      open = null;
    }
  }
  return ranges.length === 1 && !ranges[0]!.includes("-") ? `${prefix}${ranges[0]}` : `${prefix}[${ranges.join(",")}]`;
}

describe("compressHostlist against a scan of the integer line", () => {
  it("gives the same ranges for any set of node numbers in any order, up to 300 of them", () => {
    // Up to 300 names: past V8's insertion sort (22 elements), so the comparator is used by merges too.
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 300 }), (numbers) => {
        const names = numbers.map((k) => `n${k}`);
        expect(compressHostlist(names)).toBe(rangesByScan("n", new Set(numbers)));
      }),
      { numRuns: 200 },
    );
  });

  it("writes single numbers alone and pads both ends of a zero-padded range", () => {
    // Slurm's own hostlist output (scontrol show hostnames / hostlist): n[1,3], n[01-02].
    expect(compressHostlist(["n1", "n3"])).toBe("n[1,3]");
    expect(compressHostlist(["n01", "n02"])).toBe("n[01-02]");
    expect(compressHostlist(["n01", "n03", "n04"])).toBe("n[01,03-04]");
  });

  it("joins 0 to 9 with 10 when no number is zero-padded (a lone 0 is no padding)", () => {
    // "0" has one digit: it pads nothing, so n0 … n10 is one range, as Slurm prints node[0-10].
    const names = Array.from({ length: 11 }, (_, k) => `n${k}`);
    expect(compressHostlist(names)).toBe("n[0-10]");
    expect(expandHostlist("n[0-10]")).toEqual(names);
  });

  it("keeps names without a number as they are, in their order among the groups", () => {
    expect(compressHostlist(["login", "n2", "n1", "gpu", "m05"])).toBe("login,n[1-2],gpu,m05");
  });
});
