/**
 * Where the published numbers the report compares with come from (papers named as in
 * docs/science.md). The tables transcribed in `data/published/` are read when the report is
 * built (`published-tables.ts`); the numbers the stages also use as data live with them as
 * well: the measured peaks and D1–D3 in `pipeline/ingest/published-azur-data.ts` (tests keep
 * them equal to `data/published/`), [Y11] Tables 4–9 in `pipeline/schedule/published-values.ts`
 * (docs/science.md §4.5).
 */

export const TABLE_4_1_SOURCE = "[Y-thesis] Table 4.1";
export const VALIDATION_DATASETS_SOURCE = "[Y11] Table 1, [Y-thesis] Table 4.2";

/** [Y-thesis] ch. 4: the fit's mean absolute percentage error on its raw (unpublished) measurements. */
export const PUBLISHED_E_GLOBAL_PERCENT = 4.02;
export const PUBLISHED_E_GLOBAL_SOURCE = "[Y-thesis] ch. 4 (E_global)";

/** The measurement campaign's range of m ([Y-thesis] ch. 4: n = 1..30 nodes). */
export const CAMPAIGN_M_MAX = 30;

/**
 * Published numbers the reproduction does not compare, and why (the summary lists them per
 * paper). Every table of the papers with a number the project can recompute is transcribed in
 * data/published/ and has its rows; what is left has nothing to recompute.
 */
export const NOT_COMPARED: readonly { paper: string; where: string; why: string }[] = [
  {
    paper: "[BTW10]",
    where: "the whole report",
    why:
      "it has no worked example, no table and no numerical experiment: its only numbers are parameter domains, the index ranges of its " +
      "recurrences and complexities (docs/science.md §5.2), and its one figure carries no numbers",
  },
  {
    paper: "[BKT]",
    where: "Tables I and II",
    why:
      "they are the simulation's settings (the clients' and the bags' properties, docs/science.md §5.5 and §6.1), inputs of the simulator, " +
      "not results; the results are plotted (Figs 1–3), and the factors the text states are the RB rows",
  },
];
