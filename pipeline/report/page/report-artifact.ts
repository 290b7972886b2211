/**
 * The `report` artifact: what the report stage drew, as an index — its title, summary,
 * sections (with the ids of their figures and tables, whose files sit next to it) and the
 * reproduction rows it printed.
 */
import type { ReproductionRow } from "../../reproduce/reproduction";
import type { ReportContent, SummaryItem } from "./report-content";

export interface ReportArtifact {
  title: string;
  cluster: string | null;
  summary: SummaryItem[];
  sections: { id: string; title: string; figures: string[]; tables: string[]; notes: string[] }[];
  reproduction: ReproductionRow[];
}

export function reportArtifact(drawn: ReportContent): ReportArtifact {
  return {
    title: drawn.title,
    cluster: drawn.cluster,
    summary: drawn.summary,
    sections: drawn.sections.map((s) => ({ id: s.id, title: s.title, figures: s.figures.map((f) => f.id), tables: s.tables.map((t) => t.id), notes: s.notes })),
    reproduction: drawn.reproduction,
  };
}
