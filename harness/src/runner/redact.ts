/**
 * Redaction of secrets from everything the harness records: raw, base64 (as inside Basic credentials),
 * percent-encoded, JSON- and XML-escaped forms, and the values of credential headers.
 */
export interface Redactor {
  /** Learns a secret met during the run (an access token, a token secret); bounded. */
  add(secret: string): void;
  text(s: string): string;
  headers(h: Record<string, string | string[]>): Record<string, string | string[]>;
  value<T>(v: T): T;
}

export const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'authentication',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);
/** What a secret is replaced with in everything recorded. */
export const MASK = '[redacted]';

function encodings(secret: string): string[] {
  const out = new Set<string>([
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    JSON.stringify(secret).slice(1, -1),
  ]);
  out.add(secret.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`));
  out.add(Buffer.from(secret, 'utf8').toString('base64'));
  out.add(Buffer.from(secret, 'utf8').toString('base64url'));
  return [...out].filter((s) => s.length >= 3);
}

/**
 * Builds a redactor for these secrets. `pairs` are Basic user/password pairs: their base64 `user:pass` form is
 * redacted too (base64 of a substring does not appear inside base64 of the whole, so it needs its own entry).
 */
export function createRedactor(
  secrets: readonly string[],
  pairs: ReadonlyArray<readonly [string, string]> = [],
): Redactor {
  const needles = new Set<string>();
  for (const s of secrets) if (s) encodings(s).forEach((e) => needles.add(e));
  for (const [user, pass] of pairs) encodings(`${user}:${pass}`).forEach((e) => needles.add(e));
  let sorted = [...needles].sort((a, b) => b.length - a.length);
  const add = (secret: string) => {
    if (!secret || needles.size > 50_000) return;
    const before = needles.size;
    encodings(secret).forEach((e) => needles.add(e));
    if (needles.size !== before) sorted = [...needles].sort((a, b) => b.length - a.length);
  };
  const text = (s: string): string => {
    let out = maskTokenFields(s);
    for (const n of sorted) if (out.includes(n)) out = out.split(n).join(MASK);
    return out;
  };
  const headers = (h: Record<string, string | string[]>) => {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(h)) {
      if (CREDENTIAL_HEADERS.has(k.toLowerCase()))
        out[k] = Array.isArray(v) ? v.map((x) => maskCredential(x, text)) : maskCredential(v, text);
      else out[k] = Array.isArray(v) ? v.map(text) : text(v);
    }
    return out;
  };
  const value = <T>(v: T): T => JSON.parse(text(JSON.stringify(v) ?? 'null')) as T;
  return { add, text, headers, value };
}

/**
 * Token fields are masked wherever they appear, before anything else: a token endpoint's answer can reach a report
 * before the harness has learnt the token (when its step fails).
 */
function maskTokenFields(s: string): string {
  return s
    .replace(
      /("(?:access_token|refresh_token|id_token|client_secret|oauth_token_secret|password|code|code_verifier)"\s*:\s*")[^"]*(")/g,
      `$1${MASK}$2`,
    )
    .replace(
      /\b(access_token|refresh_token|client_secret|oauth_token_secret|oauth_token|oauth_verifier|oauth_signature|password|code|code_verifier)=[^&\s"'<#]*/g,
      `$1=${MASK}`,
    );
}

/** OAuth 1 protocol parameters that are secret, or let a request be forged or replayed: masked; the rest is shown. */
const OAUTH1_SECRET_PARAMS = new Set(['oauth_signature', 'oauth_token', 'oauth_verifier']);

/**
 * Keeps the scheme word (`Basic`, `hmac`, `Bearer`) so reports stay readable, and what explains most refusals
 * without being secret (issue 35): an OAuth 1 header's realm, signature method, timestamp, nonce and consumer key
 * (its signature, token and verifier masked), an hmac credential's user and nonce (its digest masked). `text` masks
 * whatever a shown part holds of the profile's secrets. Basic and Bearer values are hidden whole.
 */
function maskCredential(v: string, text: (s: string) => string = (s) => s): string {
  const scheme = /^\s*([A-Za-z][\w-]*)\s+/.exec(v)?.[1];
  if (!scheme) return MASK;
  const rest = v.trim().slice(scheme.length).trim();
  if (scheme.toLowerCase() === 'oauth') {
    const params = [...rest.matchAll(/([A-Za-z0-9_.~%-]+)\s*=\s*"([^"]*)"/g)];
    if (params.length > 0)
      return `${scheme} ${params
        .map(([, name, value]) => `${name}="${OAUTH1_SECRET_PARAMS.has(name!) ? MASK : text(value!)}"`)
        .join(', ')}`;
  }
  if (scheme.toLowerCase() === 'hmac') {
    const parts = rest.split(':');
    if (parts.length === 2 || parts.length === 3)
      return `${scheme} ${[...parts.slice(0, -1).map(text), MASK].join(':')}`;
  }
  return `${scheme} ${MASK}`;
}
