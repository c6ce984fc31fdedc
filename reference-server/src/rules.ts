/**
 * The rules the handlers follow, all in one object: {@link RULES} are the correct ones. A server reads the rules its
 * deps carry (`HandlerDeps.rules`), made once at start: the correct ones, patched by the switched-on faults
 * (faults/).
 */
import { AUTH_RULES } from './auth/rules.js';
import { OAUTH1_RULES } from './oauth1/rules.js';
import { OAUTH2_RULES } from './oauth2/rules.js';
import { ARTICLE_RULES } from './routes/rules.js';
import type { HandlerDeps, Rules } from './types.js';

/** The rules of the spec, docs/auth.md and docs/oauth.md. */
export const RULES: Rules = {
  tlsOnly: { basic: true, bearer: true, oauth1: true, oauth1Temporary: true, oauth1Token: true },
  auth: AUTH_RULES,
  oauth2: OAUTH2_RULES,
  oauth1: OAUTH1_RULES,
  articles: ARTICLE_RULES,
  access: {
    route: (route) => route,
    allow: (_route, _authenticated, listed) => listed,
    ownerOnly: () => true,
  },
};

/** The rules `deps` carry, or the correct ones. */
export function rulesOf(deps: HandlerDeps): Rules {
  return deps.rules ?? RULES;
}
