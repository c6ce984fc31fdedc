/** The end of a client check, shared by `conform check-client` and `conform serve --client-report`. */
import type { ResolvedProfile } from '../../../harness/src/profile/schema.js';
import type { ClientReport } from '../../../harness/src/report/client/schema.js';
import { createRedactor, type Redactor } from '../../../harness/src/runner/redact.js';
import type { RuleCatalogue } from '../../../harness/src/suite/types.js';
import { bodyParams, judgeClient, type RecordedExchange } from '../../../reference-server/src/index.js';
import { toolVersion } from '../io.js';
import type { ChildExit } from './child.js';
import { profileSecrets } from './env.js';
import { buildClientReport } from './report.js';

/** A redactor of every secret the profile holds (passwords, shared secrets, OAuth client and consumer secrets). */
export function profileRedactor(profile: ResolvedProfile): Redactor {
  const { secrets, pairs } = profileSecrets(profile);
  return createRedactor(secrets, pairs);
}

/** What {@link judgeRecording} needs beyond the recording. */
export interface JudgeInput {
  exchanges: readonly RecordedExchange[];
  profile: ResolvedProfile;
  catalogue: RuleCatalogue;
  redactor: Redactor;
  command: readonly string[];
  exit: ChildExit | undefined;
  /** Whether the way the command ended counts in the verdict (false under `--ignore-client-exit`). Default true. */
  exitChecked?: boolean;
  server: { url: string; httpsUrl?: string };
  startedAt: Date;
  maxRequests: number;
  /** Whether PUT and POST sign the body hash, as the server was started. Default: the profile's `auth.bodyHash`. */
  bodyHash?: boolean | 'optional';
  /** The variants the server was started with: the judge follows their signing choices. Default: none. */
  variants?: readonly string[];
}

/**
 * The tokens the client sent (bearer tokens, OAuth 1 tokens) and the OAuth 1 credentials the server issued, taught to
 * the redactor: issued at run time, they are in no profile, and must be masked wherever they show up.
 */
export function learnTokens(exchanges: readonly RecordedExchange[], redactor: Redactor): void {
  for (const ex of exchanges) {
    const authorization = ex.headers['authorization'];
    for (const value of Array.isArray(authorization) ? authorization : [authorization ?? '']) {
      const bearer = /^\s*bearer\s+(\S+)/i.exec(value)?.[1];
      if (bearer !== undefined) redactor.add(bearer);
      const oauth = /oauth_token="([^"]+)"/.exec(value)?.[1];
      if (oauth !== undefined) redactor.add(safeDecode(oauth));
    }
    if (ex.formAnswer !== undefined) {
      const answer = new URLSearchParams(ex.formAnswer);
      for (const name of ['oauth_token', 'oauth_token_secret', 'oauth_verifier'])
        for (const v of answer.getAll(name)) redactor.add(v);
    }
    if (ex.refreshToken !== undefined) redactor.add(ex.refreshToken);
    const query = new URLSearchParams(ex.target.includes('?') ? ex.target.slice(ex.target.indexOf('?') + 1) : '');
    const body = bodyParams(ex).params;
    for (const name of ['access_token', 'refresh_token', 'oauth_token']) {
      for (const v of query.getAll(name)) redactor.add(v);
      for (const v of body.getAll(name)) redactor.add(v);
    }
    // An authorization code and its verifier, where a code exchange sent them (not any parameter named `code`).
    for (const params of [query, body])
      if (params.get('grant_type') === 'authorization_code')
        for (const name of ['code', 'code_verifier']) for (const v of params.getAll(name)) redactor.add(v);
  }
}

/** Judges the recording against the client rules with what the profile says of the server; the redacted report. */
export function judgeRecording(input: JudgeInput): ClientReport {
  const { profile } = input;
  learnTokens(input.exchanges, input.redactor);
  const verdicts = judgeClient(input.exchanges, {
    users: profile.users.flatMap((u) => (u.secret === undefined ? [] : [{ name: u.name, secret: u.secret }])),
    window: profile.auth.window,
    bodyHash: input.bodyHash ?? profile.auth.bodyHash,
    variants: input.variants ?? [],
    ports: [input.server.url, input.server.httpsUrl].flatMap((u) => (u === undefined ? [] : [Number(new URL(u).port)])),
    oauth2Endpoints: [profile.auth.oauth2?.tokenEndpoint, profile.auth.oauth2?.revokeEndpoint].filter(
      (p): p is string => p !== undefined,
    ),
    oauth2AuthorizeEndpoints: [profile.auth.oauth2?.authorizeEndpoint].filter((p): p is string => p !== undefined),
    oauth1Consumers: oauth1Consumers(profile),
    articleItems: [profile.articles.item, ...profile.articles.aliases],
  });
  return buildClientReport({
    verdicts,
    exchanges: input.exchanges,
    catalogue: input.catalogue,
    redactor: input.redactor,
    command: input.command,
    exit: input.exit,
    ...(input.exitChecked === undefined ? {} : { exitChecked: input.exitChecked }),
    server: input.server,
    startedAt: input.startedAt,
    durationMs: Date.now() - input.startedAt.getTime(),
    version: toolVersion(),
    maxRequests: input.maxRequests,
  });
}

function oauth1Consumers(profile: ResolvedProfile): Array<{ key: string; secret: string }> {
  const { oauth1 } = profile.auth;
  if (oauth1 === undefined) return [];
  const other = oauth1.otherConsumer;
  return [
    { key: oauth1.consumerKey, secret: oauth1.consumerSecret },
    ...(other ? [{ key: other.consumerKey, secret: other.consumerSecret }] : []),
  ];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
