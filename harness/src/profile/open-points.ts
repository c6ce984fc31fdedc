/**
 * Every profile key, classified (VERDICTS.md §1): a **fact** says where the service is and who may use it (base
 * URLs, endpoints, users and their credentials, harness settings) — nothing a correct service could be judged on; an
 * **open point** declares a choice the spec leaves open, and says what the harness does when the profile is silent:
 * learn the target's choice from its answers, take a default every reading of the words passes, skip the checks that
 * need it, or check nothing. A check that depends on a key names it here (test/check-words.test.ts walks every check
 * of every scenario), and each open point names the variants of the reference server that prove a correct service
 * making another choice passes (test/variants.test.ts, test/minimal-profile.test.ts). docs/open-points.md says the
 * same for readers.
 */

/** What the harness does with an open point the profile is silent on. */
export type Silent =
  /** Learned from the target's answers before the first scenario (harness/src/learn/). */
  | 'learned'
  /** A default every choice the words allow passes. */
  | 'accepts-all'
  /** The checks that need it are skipped, with the key named. */
  | 'skips'
  /** Nothing depends on it unless declared (an opt-in strictness). */
  | 'not-checked';

export interface OpenPoint {
  readonly silent: Silent;
  /** Variants of the reference server making another choice (reference-server/src/variants.ts); empty with `why`. */
  readonly variants: readonly string[];
  /** Why no variant is needed, when `variants` is empty. */
  readonly why?: string;
}

export type KeyClass = { readonly kind: 'fact' } | ({ readonly kind: 'open' } & OpenPoint);

const fact = { kind: 'fact' } as const;
const open = (silent: Silent, variants: readonly string[], why?: string): KeyClass => ({
  kind: 'open',
  silent,
  variants,
  ...(why !== undefined ? { why } : {}),
});

/** Each key of the profile (dotted, `[]` for list items), classified. A new key must be added here. */
export const PROFILE_KEYS: Readonly<Record<string, KeyClass>> = {
  $schema: fact,
  articles: fact,
  options: fact,
  oob: fact,
  auth: fact,
  target: fact,
  'target.http': fact,
  'target.https': fact,
  'target.insecure': fact,
  'target.origins': open('accepts-all', ['location-other-origin', 'location-absolute']),
  'target.instances': fact,
  'target.instances[].http': fact,
  'target.instances[].https': fact,
  users: fact,
  'users[].name': fact,
  'users[].password': fact,
  'users[].secret': fact,
  'articles.collection': fact,
  'articles.item': fact,
  'articles.aliases': open('skips', ['no-alias']),
  'articles.clientChosenPut': open('learned', ['no-client-put']),
  'articles.readable': open(
    'learned',
    [],
    'every variant serves GET; a target that does not is learned and the read-backs skipped',
  ),
  'articles.deletable': open('learned', ['not-deletable']),
  'articles.writeAuth': open('learned', ['basic-only', 'oauth-only']),
  'articles.mediaType': open('learned', ['media-type-text-xml']),
  'articles.optionalFields': open(
    'accepts-all',
    [],
    'only declared optional fields are sent; undeclared ones are never judged',
  ),
  'articles.textNormalization': open('learned', ['text-trimmed', 'text-nfd']),
  'articles.replaceStatus': open('accepts-all', ['replace-204']),
  'articles.maxBodyBytes': open('skips', [], 'the oversized scenarios run only where a limit is declared'),
  'articles.bounds': open('accepts-all', ['price-two-decimals', 'title-bounded']),
  'articles.bounds.priceScale': open('accepts-all', ['price-two-decimals']),
  'articles.bounds.priceMax': open('accepts-all', ['price-two-decimals']),
  'articles.bounds.titleMaxLength': open('accepts-all', ['title-bounded']),
  'options.implemented': open('learned', ['options-partial']),
  'options.allowDependsOnAuth': open('not-checked', ['allow-same-for-all']),
  'oob.listen': fact,
  'oob.url': fact,
  protected: open(
    'accepts-all',
    [],
    'the spec names / and the records; who else may read them is checked only where declared',
  ),
  'protected[].path': fact,
  'protected[].ownerOnly': open('not-checked', [], 'owner-only records are checked only where declared'),
  'auth.schemes': open('learned', ['basic-only', 'oauth-only']),
  'auth.hmacHeader': open(
    'accepts-all',
    [],
    'the header §5.2 names is the default; a proxy that renames it is declared',
  ),
  'auth.window': open('accepts-all', ['window-300']),
  'auth.windowMargin': fact,
  'auth.bodyHash': open('learned', ['basic-only', 'oauth-only']),
  'auth.tlsOnly': open('accepts-all', ['basic-only', 'oauth-only']),
  'auth.nonceScope': open('not-checked', []),
  'auth.refusalStatus': open('accepts-all', ['refuse-403', 'refuse-400']),
  'auth.nonceMax': open('accepts-all', ['nonce-int64']),
  'auth.nonceLeadingZeros': open('accepts-all', ['nonce-int64']),
  'auth.strictDate': open('not-checked', ['date-formats-extra']),
  'auth.signedPathIncludesQuery': open('learned', ['path-without-query']),
  'auth.nonceMemoryWait': open('not-checked', []),
  'auth.oauth2': fact,
  'auth.oauth2.tokenEndpoint': fact,
  'auth.oauth2.clientAuth': open('accepts-all', ['oauth2-client-basic-only']),
  'auth.oauth2.clientId': fact,
  'auth.oauth2.clientSecret': fact,
  'auth.oauth2.user': fact,
  'auth.oauth2.ttl': open('learned', [], 'expiry is checked only where a lifetime is known'),
  'auth.oauth2.revokeEndpoint': fact,
  'auth.oauth2.otherClient': fact,
  'auth.oauth2.otherClient.clientId': fact,
  'auth.oauth2.otherClient.clientSecret': fact,
  'auth.oauth2.otherClient.user': fact,
  'auth.oauth2.otherClient.grants': open('learned', ['oauth2-password-only', 'oauth2-client-no-user']),
  'auth.oauth2.grants': open('learned', ['oauth2-password-only', 'oauth2-client-no-user']),
  'auth.oauth2.clients': fact,
  'auth.oauth2.authorizeEndpoint': fact,
  'auth.oauth2.redirectUri': fact,
  'auth.oauth2.pkce': open('not-checked', ['oauth2-code-pkce-only']),
  'auth.oauth2.refreshRotation': open('not-checked', ['oauth2-refresh-rotation']),
  'auth.oauth2.clients[].clientId': fact,
  'auth.oauth2.clients[].clientSecret': fact,
  'auth.oauth2.clients[].user': fact,
  'auth.oauth2.clients[].grants': open('learned', ['oauth2-password-only', 'oauth2-client-no-user']),
  'auth.oauth2.clients[].ttl': open('learned', [], 'expiry is checked only where a lifetime is known'),
  'auth.oauth1': fact,
  'auth.oauth1.consumerKey': fact,
  'auth.oauth1.consumerSecret': fact,
  'auth.oauth1.temporaryEndpoint': fact,
  'auth.oauth1.authorizeEndpoint': fact,
  'auth.oauth1.tokenEndpoint': fact,
  'auth.oauth1.user': fact,
  'auth.oauth1.approval': open('learned', ['oauth1-approve-post']),
  'auth.oauth1.approval.method': open('learned', ['oauth1-approve-post']),
  'auth.oauth1.approval.ownerScheme': open('learned', ['oauth1-approve-post']),
  'auth.oauth1.approval.fields': open('learned', ['oauth1-approve-post']),
  'auth.oauth1.tokensBoundToConsumer': open('not-checked', []),
  'auth.oauth1.placements': open('accepts-all', ['oauth1-header-only', 'get-content-refused']),
  'auth.oauth1.realm': open('accepts-all', ['oauth1-realm-configured']),
  'auth.oauth1.signatureMethods': open('learned', ['oauth1-methods-extra']),
  'auth.oauth1.otherConsumer': fact,
  'auth.oauth1.otherConsumer.consumerKey': fact,
  'auth.oauth1.otherConsumer.consumerSecret': fact,
};

/**
 * The open points a check depends on without naming them in a template: a refusal's status (`refused`), how the
 * article text is compared (`article`), how a replace answers. Checks that name `{{ profile.… }}` depend on that key.
 */
export const CHECK_OPEN_POINTS: Readonly<Record<string, readonly string[]>> = {
  refused: ['auth.refusalStatus'],
  article: ['articles.textNormalization', 'articles.optionalFields', 'articles.bounds'],
  location: ['target.origins'],
};
