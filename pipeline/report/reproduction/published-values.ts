/**
 * Where the published numbers the report compares with come from (papers named as in
 * docs/science.md). The numbers themselves live with the stage that uses them as data: the
 * measured peaks and D1–D3 in `pipeline/ingest/published-azur-data.ts` (and
 * `data/published/`), the ScheduleCkpt results in `pipeline/schedule/published-values.ts`.
 */

export const TABLE_4_1_SOURCE = "[Y-thesis] Table 4.1";
export const VALIDATION_DATASETS_SOURCE = "[Y11] Table 1, [Y-thesis] Table 4.2";

/** [Y-thesis] ch. 4: the fit's mean absolute percentage error on its raw (unpublished) measurements. */
export const PUBLISHED_E_GLOBAL_PERCENT = 4.02;
export const PUBLISHED_E_GLOBAL_SOURCE = "[Y-thesis] ch. 4 (E_global)";

/** The measurement campaign's range of m ([Y-thesis] ch. 4: n = 1..30 nodes). */
export const CAMPAIGN_M_MAX = 30;

/**
 * Published numbers the project's code can compute but whose printed values are not in
 * docs/science.md (nor in data/published/), so they cannot be compared yet. Listed in the
 * reproduction summary as open; to compare one, transcribe its printed values into
 * docs/science.md and data/published/ and add its rows.
 */
export const NOT_TRANSCRIBED: readonly { paper: string; where: string; what: string; ours: string }[] = [
  {
    paper: "[Y11]",
    where: "Table 1 (and [Y-thesis] Table 4.2), estimated columns",
    what: "the peaks (ī, bw_ī) of D1–D3 the fitted model predicts",
    ours: "the D1–D3 peak rows' `ours` (report/figures/model-curve.ts, peakCurve)",
  },
  {
    paper: "[Y-thesis]",
    where: "Table 4.2, estimated columns",
    what: "the peaks (ī, bw_ī) of D1–D3 the fitted model predicts",
    ours: "the D1–D3 peak rows' `ours` (peakCurve)",
  },
  { paper: "[Y-thesis]", where: "Table 4.3", what: "the measured single-process checkpoint rate per size", ours: "used by sequential greedy at a measured rate (schedule/sequential-at-rate.ts); only the range 5.3–6 MB/s is transcribed" },
  { paper: "[Y-thesis]", where: "Table 5.1", what: "bw_i of the validation sets D1–D3 for every i", ours: "peakCurve(model, sizes).points" },
  { paper: "[Y-thesis]", where: "§5.4.2", what: "the worked example of ScheduleCkpt, for every k0 the text gives", ours: "ckpt schedule on the example's applications" },
  { paper: "[Y-thesis]", where: "Table 7.1", what: "ScheduleCkpt on identical sizes, every size and column", ours: "the campaign's identical part, `scheduleCkpt` (ckpt campaign --parts identical)" },
  { paper: "[Y-thesis]", where: "Tables 7.3–7.8", what: "the second random instance of each family: CTNYS, RCTNYS and times, waves and totals", ours: "the same rows as [Y11] Tables 4–9 (share against our seeds, RCTNYS from the table's Σ p)" },
  { paper: "[BTW10]", where: "examples", what: "costs, periods and expected waste of the paper's examples", ours: "ckpt place (the DP placer and its baselines)" },
  { paper: "[BKT]", where: "§III–IV", what: "numbers of the DP placer on the paper's examples (the paper gives figures, not tables)", ours: "ckpt place --objective bkt" },
];
