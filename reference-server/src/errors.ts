/**
 * The reference server's errors: one base class, stable `REF_*` codes. These are errors of its configuration and
 * its storage (bad options, a data directory in use, a damaged journal), never of a request — a bad request is an
 * answer (4xx), not an exception. (`XmlFault` in xml/cursor.ts is not one of these: it is the XML reader's internal
 * signal, always caught and turned into a 400 answer.)
 */
export type RefErrorCode =
  | 'REF_UNKNOWN_FAULT'
  | 'REF_UNKNOWN_VARIANT'
  | 'REF_VARIANT_CONFLICT'
  | 'REF_INVALID_USER'
  | 'REF_INVALID_OAUTH_CLIENT'
  | 'REF_DATA_DIR_IN_USE'
  | 'REF_JOURNAL_CORRUPT'
  | 'REF_JOURNAL_WRITE_FAILED'
  | 'REF_REDIS_UNAVAILABLE'
  | 'REF_REDIS_EVICTS';

export class ReferenceServerError extends Error {
  /** Stable error code. */
  readonly code: RefErrorCode;

  constructor(code: RefErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReferenceServerError';
    this.code = code;
  }
}
