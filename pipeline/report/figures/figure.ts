/**
 * A figure is data: an id (the file stem of its outputs), a title and caption for the
 * report, and a Vega-Lite v5 spec with its data inlined. Builders in this folder are pure
 * functions from plain data to a `Figure`; rendering and files happen elsewhere.
 */
import type { TopLevelSpec } from "vega-lite";

export interface Figure {
  /** kebab-case, unique in a report: `figures/<id>.svg`, `.png`, `.pdf`, `.vl.json`. */
  id: string;
  title: string;
  /** What the figure shows and where its numbers come from (sources named as in docs/science.md). */
  caption: string;
  spec: TopLevelSpec;
  /**
   * Draws measured durations, which differ from run to run: its files are declared volatile
   * and the report page shows its SVG instead of embedding its spec.
   */
  volatile?: boolean;
}
