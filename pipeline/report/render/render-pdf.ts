/**
 * SVG → PDF with the fonts embedded (pdfkit + svg-to-pdfkit), one page the size of the
 * figure, in points.
 *
 * - PDF's standard Helvetica lacks σ, ≈, ī, µ…: DejaVu Sans (regular, bold) is registered
 *   and returned for every family by `fontCallback`, so it is embedded (subset).
 * - svg-to-pdfkit ignores `options.width` when the SVG states its own width and would clip
 *   the legend of a wider page: the page is sized from the SVG and any scaling is done
 *   with the document's transform (RECIPES).
 * - pdfkit stamps the creation date: it is pinned to the epoch so that a rerun gives the
 *   same bytes.
 * - A dash with no gaps ("1,0", how a legend's solid line is dashed) is solid: pdfkit
 *   refuses a zero length, so such dash arrays are dropped before drawing.
 */
import PDFDocument from "pdfkit";
import SVGtoPDF from "svg-to-pdfkit";
import { fontFiles } from "./fonts";

export interface PdfOptions {
  /** Document title (metadata). */
  title?: string;
  /** Width of the page in points; the figure is scaled to it (default: 1 SVG px = 1 pt). */
  widthPt?: number;
}

const REGULAR = "DejaVuSans";
const BOLD = "DejaVuSans-Bold";

export function renderPdf(svg: string, size: { width: number; height: number }, options: PdfOptions = {}): Promise<Buffer> {
  const scale = options.widthPt !== undefined ? options.widthPt / size.width : 1;
  const files = fontFiles();
  const epoch = new Date(0);
  const doc = new PDFDocument({
    size: [size.width * scale, size.height * scale],
    margin: 0,
    compress: true,
    info: { Title: options.title ?? "", Creator: "ckpt-lab", Producer: "ckpt-lab", CreationDate: epoch, ModDate: epoch },
  });
  doc.registerFont(REGULAR, files.regular);
  doc.registerFont(BOLD, files.bold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.save();
  doc.scale(scale);
  SVGtoPDF(doc, withoutGaplessDashes(svg), 0, 0, {
    width: size.width,
    height: size.height,
    preserveAspectRatio: "xMinYMin meet",
    fontCallback: (_family, bold) => (bold ? BOLD : REGULAR),
  });
  doc.restore();
  doc.end();
  return done;
}

/** `stroke-dasharray` attributes whose every other length (the gaps) is 0: solid lines. */
function withoutGaplessDashes(svg: string): string {
  return svg.replace(/\s*stroke-dasharray="([^"]*)"/g, (attribute, list: string) => {
    const lengths = list.split(/[\s,]+/).filter(Boolean).map(Number);
    return lengths.length > 0 && lengths.every((length, i) => i % 2 === 0 || length === 0) ? "" : attribute;
  });
}
