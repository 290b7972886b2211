/**
 * The project's two kinds of refusal, and the one place their exit codes are decided.
 *
 * - `InputError` (exit 1): the command was well formed but the data or a parameter is
 *   impossible (a negative size, a deadline ≤ 0, a rank-deficient design…). The message
 *   says what was expected, what was found, where, and how to fix it.
 * - `UsageError` (exit 2): the command line itself is wrong (unknown flag, missing
 *   argument). The CLI prints the command's usage after it.
 *
 * Lower-level failures are wrapped with `cause` rather than lost.
 */
export class InputError extends Error {
  override readonly name = "InputError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Exit code the CLI uses for an error thrown by a command: 2 for usage, 1 for anything else. */
export function exitCodeOf(error: unknown): number {
  return error instanceof UsageError ? 2 : 1;
}

/** `file:line: reason` — the one format for a position in input data. */
export function atLine(file: string, line: number, reason: string): string {
  return `${file}:${line}: ${reason}`;
}

/** Refuse a number that must be finite and > 0, saying which parameter and how to fix it. */
export function requirePositive(name: string, value: number, hint = ""): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new InputError(`${name} must be a finite number > 0, got ${value}${hint ? `; ${hint}` : ""}`);
  }
  return value;
}

/** Refuse a number that must be finite and ≥ 0. */
export function requireNonNegative(name: string, value: number, hint = ""): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new InputError(`${name} must be a finite number ≥ 0, got ${value}${hint ? `; ${hint}` : ""}`);
  }
  return value;
}
