import { describe, expect, it } from "vitest";
import { cellSource, declaredParameters, injectParameters, type Notebook } from "../../pipeline/notebook/notebook-parameters";

function notebook(parameters: string): Notebook {
  return {
    cells: [
      { cell_type: "markdown", id: "t", metadata: {}, source: "# t" },
      { cell_type: "code", id: "p", metadata: { tags: ["parameters"] }, source: parameters.split(/(?<=\n)/), outputs: [], execution_count: null },
      { cell_type: "code", id: "c", metadata: {}, source: "console.log(model);", outputs: [], execution_count: null },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const nb = notebook('// parameters\nlet model = "paper"; // or a file\nlet tolerance: number = 0.05;\nlet sizes = [1, 2];\nlet flag = true\n');

describe("notebook parameters (papermill's convention)", () => {
  it("reads the declarations of the cell tagged parameters", () => {
    expect(declaredParameters(nb)).toEqual([
      { name: "model", defaultText: '"paper"', type: "string" },
      { name: "tolerance", defaultText: "0.05", type: "number" },
      { name: "sizes", defaultText: "[1, 2]", type: "object" },
      { name: "flag", defaultText: "true", type: "boolean" },
    ]);
  });

  it("injects the values in a tagged cell right after the parameters cell, leaving the rest as written", () => {
    const out = injectParameters(nb, { model: "reports/model.json", tolerance: 0.1, sizes: [3] }, "x.ipynb");
    expect(out.cells.map((c) => c.id)).toEqual(["t", "p", "injected-parameters", "c"]);
    expect(out.cells[2]!.metadata.tags).toEqual(["injected-parameters"]);
    expect(cellSource(out.cells[2]!)).toMatch(/\nmodel = "reports\/model.json";\ntolerance = 0.1;\nsizes = \[3\];$/);
    expect(out.cells[1]).toEqual(nb.cells[1]);
    // Running again replaces the injected cell instead of stacking another.
    expect(injectParameters(out, { flag: false }, "x.ipynb").cells.map((c) => c.id)).toEqual(["t", "p", "injected-parameters", "c"]);
    expect(injectParameters(nb, {}, "x.ipynb")).toBe(nb);
  });

  it("refuses unknown names, wrong types, const declarations and notebooks without a parameters cell", () => {
    expect(() => injectParameters(nb, { modle: "x" }, "x.ipynb")).toThrow(/no parameter "modle"; its parameters are model, tolerance, sizes, flag/);
    expect(() => injectParameters(nb, { tolerance: "high" }, "x.ipynb")).toThrow(/"tolerance" of x.ipynb is a number \(default 0.05\); got "high"/);
    expect(() => declaredParameters(notebook("const model = 1;\n"))).toThrow(/declare parameters with let/);
    const plain = { ...nb, cells: [nb.cells[0]!] };
    expect(() => injectParameters(plain, { model: "x" }, "x.ipynb")).toThrow(/no cell tagged "parameters"/);
  });
});
