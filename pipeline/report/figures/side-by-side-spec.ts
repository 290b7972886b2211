/**
 * Two figures side by side in one (Vega-Lite hconcat), each keeping its own scales and
 * legends: for quantities of different magnitude that must be read together, e.g. the
 * bandwidth curves of a cluster over NFS (tens of MB/s) and of a local disk (GB/s).
 */
import type { TopLevelSpec } from "vega-lite";
import { themeFrame } from "./chart-frame";
import type { Figure } from "./figure";

export function sideBySideFigure(id: string, title: string, caption: string, left: Figure, right: Figure, titles: [string, string]): Figure {
  const part = (figure: Figure, heading: string) => {
    // `usermeta` belongs to the top level: the parts' signed axes are the whole figure's.
    const { $schema: _schema, config: _config, usermeta: _usermeta, ...rest } = figure.spec as unknown as Record<string, unknown>;
    return { ...rest, title: { text: heading, fontSize: 9, fontWeight: "normal" } };
  };
  const signedAxes = [left, right].flatMap((f) => ((f.spec as { usermeta?: { signedAxes?: string[] } }).usermeta?.signedAxes ?? []));
  const spec = {
    ...themeFrame(),
    ...(signedAxes.length > 0 ? { usermeta: { signedAxes: [...new Set(signedAxes)] } } : {}),
    hconcat: [part(left, titles[0]), part(right, titles[1])],
    spacing: 16,
    resolve: {
      scale: { color: "independent", shape: "independent", strokeDash: "independent", size: "independent", x: "independent", y: "independent" },
      legend: { color: "independent", shape: "independent", strokeDash: "independent", size: "independent" },
    },
  } as unknown as TopLevelSpec;
  return { id, title, caption, spec };
}
