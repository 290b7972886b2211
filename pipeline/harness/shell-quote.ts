/**
 * Quote a value for a POSIX shell command line: left bare when it is made only of
 * characters no shell treats specially, single-quoted otherwise (with `'` as `'\''`).
 * @example shellQuote("/tmp/ckpt target") // "'/tmp/ckpt target'"
 */
export function shellQuote(value: string): string {
  if (value !== "" && /^[A-Za-z0-9_./:=@%+,-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** An argv as one shell command line. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
