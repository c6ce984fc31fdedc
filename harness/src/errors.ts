/**
 * Typed errors with stable codes. Expected outcomes (a target breaking a rule, an unreachable target) are verdicts,
 * not exceptions; these errors are for bad input to the harness itself (usage, invalid files) and for bugs.
 */
export type ConformErrorCode =
  | 'CONFORM_USAGE'
  | 'CONFORM_INVALID_FILE'
  | 'CONFORM_IO'
  | 'CONFORM_TEMPLATE'
  | 'CONFORM_SELF_TEST'
  | 'CONFORM_INTERNAL';

/**
 * The exit code of `conform` for each error code (CONTRACT.md): 2 for what the user can fix (usage, a file, the
 * machine), 4 for conform's own fault (its signers disagree with the known-answer vectors, or a bug).
 */
export const EXIT_CODE: Readonly<Record<ConformErrorCode, 2 | 4>> = {
  CONFORM_USAGE: 2,
  CONFORM_INVALID_FILE: 2,
  CONFORM_IO: 2,
  CONFORM_TEMPLATE: 2,
  CONFORM_SELF_TEST: 4,
  CONFORM_INTERNAL: 4,
};

/** The exit code for anything thrown out of a command: a ConformError by its code, anything else is a bug (4). */
export function exitCodeForError(err: unknown): 2 | 4 {
  return err instanceof ConformError ? EXIT_CODE[err.code] : 4;
}

/** A problem in a user's file, located precisely. */
export interface SourceIssue {
  file: string;
  line: number;
  column: number;
  /** Path inside the document, e.g. `scenarios.0.steps.1.expect.status`. */
  path: string;
  message: string;
}

/** An error of conform itself, with a stable `code` (`CONFORM_USAGE`, `CONFORM_INVALID_FILE`, …) the CLI maps to an exit code. */
export class ConformError extends Error {
  readonly code: ConformErrorCode;
  constructor(code: ConformErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConformError';
    this.code = code;
  }
}

/** Raised when scenario files, profiles or the rule catalogue are invalid; carries every issue found. */
export class InvalidFileError extends ConformError {
  readonly issues: readonly SourceIssue[];
  constructor(issues: readonly SourceIssue[]) {
    super('CONFORM_INVALID_FILE', issues.map(formatIssue).join('\n'));
    this.name = 'InvalidFileError';
    this.issues = issues;
  }
}

/** `file:line:col: message` — the form editors and CI annotations understand. */
export function formatIssue(issue: SourceIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.message}`;
}
