/**
 * The font files every renderer uses: DejaVu Sans (regular and bold) from the
 * `dejavu-fonts-ttf` npm package, so rendering needs no system font and gives the same
 * bytes on every machine.
 */
import { dirname, join } from "node:path";

export interface FontFiles {
  regular: string;
  bold: string;
}

let cached: FontFiles | undefined;

export function fontFiles(): FontFiles {
  if (cached === undefined) {
    const ttf = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
    cached = { regular: join(ttf, "DejaVuSans.ttf"), bold: join(ttf, "DejaVuSans-Bold.ttf") };
  }
  return cached;
}
