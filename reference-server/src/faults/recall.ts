/**
 * The descriptions of the faults of issue 37 (spread into registry.ts's FAULTS in place): defects that show only
 * with overlap (a nonce recorded after the answer), with a verb mapped to another (HEAD signed as GET), after an
 * earlier success (a digest or token remembered once it verified), or with more digits than a double holds; and two
 * the mutation survivors showed (docs/mutation.md, part 1): a 405 turned into 401 for valid credentials, and the
 * OAuth endpoints' 405 without Allow. Their definitions are in concurrency.ts, digests.ts, oauth.ts, articles.ts,
 * access.ts and answers.ts.
 */
export const RECALL_FAULT_TEXTS = {
  'nonce-recorded-late':
    'Every nonce (hmac and OAuth 1) is checked when the request is handled and recorded only after its answer is out (one macrotask later): replays sent one after another are refused, identical requests arriving together are all accepted.',
  'hmac-head-as-get': 'The hmac message of a HEAD is rebuilt as GET+<path>: a GET digest opens a HEAD.',
  'oauth1-head-as-get':
    'The OAuth 1 signature base string of a HEAD is built with GET: a correctly signed HEAD is refused, and a signature made for GET opens a HEAD.',
  'digest-cache':
    'A digest that verified once opens any verb, path and query afterwards, its nonce (date-and-nonce form) not spent again (a cache).',
  'oauth1-signature-cache':
    'An OAuth 1 signature that verified once is taken again without rebuilding the base string or spending its nonce: the same Authorization field opens a HEAD, or the GET with a query added, afterwards (a cache).',
  'bearer-scope-cache':
    "A bearer token that opened records once is remembered and spared the owner check afterwards: after opening its own user's records it opens every user's.",
  'price-double': 'Prices are binary doubles: 17+ significant digits, or past 2^53, come back altered.',
  'unlisted-method-401-authenticated':
    'A request with valid credentials and a method the resource does not allow is answered 401 with the challenges, as if the credentials were wrong, instead of 405.',
  'oauth-endpoint-405-no-allow':
    'The OAuth endpoints answer a method other than the one each takes 405 without Allow (the resources keep theirs).',
} as const;
