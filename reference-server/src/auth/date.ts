/** Month abbreviations of the signed `Date` header, in calendar order. */
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const SHAPE = /^([0-9]{1,2}) ([A-Z][a-z]{2}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2})$/;

/**
 * Parses the signed-request `Date`: `<DD> <Mon> <YYYY> <hh>:<mm>:<ss>` in UTC (a one-digit day is accepted,
 * `<Mon>` is exactly one of Jan…Dec). Returns the instant in milliseconds, or undefined when the value is not
 * of this shape or names an impossible date or time (31 Feb, 24:00:00, a leap second…).
 */
export function parseSignedDate(value: string): number | undefined {
  const m = SHAPE.exec(value);
  if (!m) return undefined;
  const [day, month, year, hour, minute, second] = [Number(m[1]), MONTHS.indexOf(m[2] as (typeof MONTHS)[number]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  if (month < 0 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, second, 0);
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day;
  return valid ? date.getTime() : undefined;
}

/** `<date_text>`: the Date value with every space removed, lowercased (`22 Nov 2026 10:00:00` → `22nov202610:00:00`). */
export function dateText(value: string): string {
  return value.replaceAll(' ', '').toLowerCase();
}

const two = (n: number): string => String(n).padStart(2, '0');

/** Formats an instant as the signed-request `Date` (`DD Mon YYYY hh:mm:ss`, UTC, two-digit day). */
export function formatSignedDate(at: Date): string {
  const time = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
  return `${two(at.getUTCDate())} ${MONTHS[at.getUTCMonth()] ?? ''} ${String(at.getUTCFullYear()).padStart(4, '0')} ${time}`;
}
