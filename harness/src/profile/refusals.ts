/** What counts as a refusal of credentials (§5.4 leaves the status open; `auth.refusalStatus` pins it). */

/**
 * 4xx statuses that say something other than "your credentials are refused" (not found, wrong method, conflict,
 * size limits, rate limits…): without `auth.refusalStatus` every other 4xx counts as a refusal.
 */
export const NOT_REFUSALS: ReadonlySet<number> = new Set([
  404, 405, 406, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 425, 426, 428, 429, 431, 451,
]);

/** True when `status` refuses credentials under the profile's `auth.refusalStatus` (or, without it, any refusing 4xx). */
export function isRefusalStatus(status: number, refusalStatus: readonly number[] | undefined): boolean {
  if (refusalStatus !== undefined) return refusalStatus.includes(status);
  return status >= 400 && status <= 499 && !NOT_REFUSALS.has(status);
}
