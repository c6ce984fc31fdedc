/** Month abbreviations of the signed `Date` header, in calendar order. */
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const SHAPE = /^([0-9]{1,2}) ([A-Z][a-z]{2}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2})$/;
/** {@link SHAPE} with the month abbreviation in any case (the `date-month-any-case` variant). */
const ANY_CASE_SHAPE = /^([0-9]{1,2}) ([A-Za-z]{3}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2})$/;

/**
 * Parses the signed-request `Date`: `<DD> <Mon> <YYYY> <hh>:<mm>:<ss>` in UTC (a one-digit day is accepted,
 * `<Mon>` is exactly one of Jan…Dec, or with `anyCaseMonth` — the `date-month-any-case` variant — one of them in
 * any case: `nov`, `NOV`, `nOv`). Returns the instant in milliseconds, or undefined when the value is not of this
 * shape or names an impossible date or time (31 Feb, 24:00:00, a leap second…).
 */
export function parseSignedDate(value: string, anyCaseMonth = false): number | undefined {
  const m = (anyCaseMonth ? ANY_CASE_SHAPE : SHAPE).exec(value);
  if (!m) return undefined;
  const name = m[2] ?? '';
  const monthIndex = anyCaseMonth
    ? MONTHS.findIndex((mon) => mon.toLowerCase() === name.toLowerCase())
    : MONTHS.indexOf(name as (typeof MONTHS)[number]);
  const [day, month, year, hour, minute, second] = [
    Number(m[1]),
    monthIndex,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
  ];
  if (month < 0 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, second, 0);
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day;
  return valid ? date.getTime() : undefined;
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MON = '([A-Z][a-z]{2})';
const HMS = '([0-9]{2}):([0-9]{2}):([0-9]{2})';
/** RFC 9110 §5.6.7 IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF = new RegExp(`^${DAY}, ([0-9]{2}) ${MON} ([0-9]{4}) ${HMS} GMT$`);
/** RFC 9110 §5.6.7 obsolete RFC 850 date: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850 = new RegExp(`^${LONG_DAY}, ([0-9]{2})-${MON}-([0-9]{2}) ${HMS} GMT$`);
/** RFC 9110 §5.6.7 obsolete asctime date: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = new RegExp(`^${DAY} ${MON} ([ 0-9][0-9]) ${HMS} ([0-9]{4})$`);
/** ISO 8601 / RFC 3339 in UTC: `1994-11-06T08:49:37Z` (fractional seconds allowed). */
const ISO = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?Z$/;

/** The instant of a calendar date and time in UTC, or undefined when it names none (31 Feb, 25:00, second 60). */
function instant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  if (month < 0 || month > 11 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, second, 0);
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day;
  return valid ? date.getTime() : undefined;
}

const monthOf = (name: string | undefined): number => MONTHS.indexOf(name as (typeof MONTHS)[number]);

/**
 * The `date-formats-extra` variant's reading of a Date: the spec's shape, or any HTTP-date (RFC 9110 §5.6.7: IMF-fixdate,
 * RFC 850, asctime — which HTTP recipients must accept), or an ISO 8601 instant in UTC. Impossible dates and times
 * are still refused. A two-digit RFC 850 year more than 50 years ahead of `nowMs` is in the past century. With
 * `anyCaseMonth` (the `date-month-any-case` variant) the spec's shape takes its month in any case; the others do not.
 */
export function parseLenientDate(value: string, nowMs: number, anyCaseMonth = false): number | undefined {
  const spec = parseSignedDate(value, anyCaseMonth);
  if (spec !== undefined) return spec;
  let m = IMF.exec(value);
  if (m) return instant(Number(m[3]), monthOf(m[2]), Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  m = RFC850.exec(value);
  if (m) {
    const thisYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    return instant(year, monthOf(m[2]), Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  m = ASCTIME.exec(value);
  if (m) return instant(Number(m[6]), monthOf(m[1]), Number(m[2]?.trim()), Number(m[3]), Number(m[4]), Number(m[5]));
  m = ISO.exec(value);
  if (m) return instant(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return undefined;
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
