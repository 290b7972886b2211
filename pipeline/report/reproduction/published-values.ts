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
