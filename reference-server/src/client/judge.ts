/**
 * The judge of client rules (`conform check-client`): a pure function from what the reference server recorded of a
 * client's requests, and what the server knows (users' secrets, window, body hash, OAuth 2 endpoints), to one
 * verdict per client rule. It recomputes HMAC digests with the server's own message builder (auth/message.ts).
 */
import type { RecordedExchange } from '../recording.js';
import { ARTICLE_CLIENT_RULES, itemMatcher, judgeArticle } from './article-rules.js';
import { GRANT_CLIENT_RULES, grantMemory, judgeGrants } from './grant-rules.js';
import { HMAC_CLIENT_RULES, judgeHmac, type NonceMemory } from './hmac-rules.js';
import { OAUTH_CLIENT_RULES, judgeOAuth, type TokenSecrets } from './oauth-rules.js';
import { Tally, type ClientRuleVerdict } from './verdicts.js';

export type { ClientRuleStatus, ClientRuleVerdict, ClientViolation } from './verdicts.js';

/** Every client rule the judge decides, in report order. */
export const CLIENT_RULES: readonly string[] = [
  ...HMAC_CLIENT_RULES,
  ...OAUTH_CLIENT_RULES,
  ...GRANT_CLIENT_RULES,
  ...ARTICLE_CLIENT_RULES,
];

/** What the judge knows of the server the client talked to. */
export interface ClientJudgeContext {
  /** Users and their HMAC shared secrets. */
  users: ReadonlyArray<{ name: string; secret: string }>;
  /** Accepted clock difference of a signed Date, seconds. */
  window: number;
  /** PUT and POST signatures cover the body hash (the server's `bodyHash`): always, never, or either way. */
  bodyHash: boolean | 'optional';
  /** Paths of the OAuth 2 endpoints that authenticate the client (token, revocation). */
  oauth2Endpoints: readonly string[];
  /** Paths of the OAuth 2 authorization endpoints (the authorization code grant). Default: none. */
  oauth2AuthorizeEndpoints?: readonly string[];
  /** Article item paths PUT replaces, `{id}` for a segment (`/articles/{id}`, `/article/{id}`). Default: none. */
  articleItems?: readonly string[];
  /** OAuth 1 consumers and their secrets. Default: none (OAuth 1 signatures are then judged by the server's answers). */
  oauth1Consumers?: ReadonlyArray<{ key: string; secret: string }>;
  /**
   * The variants (variants.ts) the server was started with: the signing choices among them are the client's to
   * follow (the path signed without its query, the Date's forms, how digests and nonces compare). Default: none.
   */
  variants?: readonly string[];
  /** The ports the server listened on (plain and TLS), to name an OAuth 1 base string signed with the other. */
  ports?: readonly number[];
}

/** One verdict per rule of {@link CLIENT_RULES}, from the exchanges in the order the server received them. */
export function judgeClient(exchanges: readonly RecordedExchange[], context: ClientJudgeContext): ClientRuleVerdict[] {
  const tally = new Tally(CLIENT_RULES);
  const nonces: NonceMemory = new Map();
  const hmac = {
    users: new Map(context.users.map((u) => [u.name, u.secret])),
    window: context.window,
    bodyHash: context.bodyHash,
    variants: new Set(context.variants ?? []),
  };
  const oauth = {
    clientEndpoints: context.oauth2Endpoints,
    ports: context.ports ?? [],
    consumers: new Map((context.oauth1Consumers ?? []).map((c) => [c.key, c.secret])),
  };
  const tokens: TokenSecrets = new Map();
  const grants = {
    clientEndpoints: context.oauth2Endpoints,
    authorizeEndpoints: context.oauth2AuthorizeEndpoints ?? [],
  };
  const issued = grantMemory();
  const isItem = itemMatcher(context.articleItems ?? []);
  for (const ex of [...exchanges].sort((a, b) => a.seq - b.seq)) {
    judgeHmac(ex, hmac, nonces, tally);
    judgeOAuth(ex, oauth, tokens, tally);
    judgeGrants(ex, grants, issued, tally);
    judgeArticle(ex, isItem, tally);
  }
  return tally.verdicts();
}
