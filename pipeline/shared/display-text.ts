/**
 * Text from input data (a cluster name, a run attribute) made fit to show in a report: control
 * characters and the line and paragraph separators (U+2028/2029), which no output can show
 * and which break the expressions Vega compiles labels into, become spaces, and runs of
 * spaces one. Everything else is kept as it is; each output escapes it for its own syntax.
 */
export function displayText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
}
