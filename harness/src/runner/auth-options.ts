/**
 * The user and the options a step's explicit `auth:` asks for, rendered for one request (runner/request.ts): who the
 * credentials name, and everything a scenario alters or adds (a fixed nonce or date, a skew, mutations, another
 * user's secret, OAuth parameters).
 */
import type { AuthOptions, AuthScheme } from '../auth/authenticator.js';
import type { Mutation } from '../auth/mutations.js';
import type { Grant, ResolvedProfile } from '../profile/schema.js';
import type { StepData } from '../suite/schema.js';
import { stringify, type Scope } from '../suite/template.js';
import { num, render } from './render.js';

/** A step's `auth:` when it is written out (not `auto` nor `none`). */
export type ExplicitAuth = Extract<NonNullable<NonNullable<StepData['request']>['auth']>, object>;

function clientAuthOf(v: string | undefined): 'basic' | 'basic-encoded' | 'form' {
  return v === 'form' || v === 'basic-encoded' ? v : 'basic';
}

function placementOf(v: string | undefined): 'header' | 'query' | 'form' {
  return v === 'query' || v === 'form' ? v : 'header';
}

/**
 * The user `auth` names (undefined: the profile's first user) and the options it asks for. A user rendered empty (an
 * actor acting for nobody: `{{ a.user | default: '' }}`) names no user; an OAuth scheme named without a user acts for
 * the user its client or consumer acts for.
 */
export function explicitAuth(
  auth: ExplicitAuth,
  explicit: AuthScheme | undefined,
  scope: Scope,
  profile: ResolvedProfile,
): { user?: string; options: AuthOptions } {
  const named = auth.user === undefined ? '' : stringify(render(auth.user, scope));
  const user =
    named !== ''
      ? named
      : auth.user === undefined && explicit === 'oauth2' && profile.auth.oauth2?.user
        ? profile.auth.oauth2.user
        : auth.user === undefined && explicit === 'oauth1' && profile.auth.oauth1?.user
          ? profile.auth.oauth1.user
          : undefined;
  const signAs = auth.signAs;
  const text = (t: string | undefined) => (t === undefined ? undefined : stringify(render(t, scope)));
  const options: AuthOptions = {
    ...(auth.secretOf !== undefined ? { secretOf: text(auth.secretOf)! } : {}),
    ...(auth.passwordMutation !== undefined
      ? { passwordMutation: render(auth.passwordMutation, scope) as Mutation }
      : {}),
    ...(auth.nonce !== undefined ? { nonce: text(auth.nonce)! } : {}),
    ...(auth.date !== undefined ? { date: text(auth.date)! } : {}),
    ...(num(auth.skew === undefined ? undefined : render(auth.skew, scope)) !== undefined
      ? { skew: num(render(auth.skew!, scope))! }
      : {}),
    ...(auth.omitDate ? { omitDate: true } : {}),
    ...(signAs
      ? {
          signAs: Object.fromEntries(
            Object.entries({
              method: text(signAs.method)?.toUpperCase(),
              path: text(signAs.path),
              date: text(signAs.date),
              nonce: text(signAs.nonce),
              body: text(signAs.body),
              simple: signAs.simple,
            }).filter(([, v]) => v !== undefined),
          ),
        }
      : {}),
    ...(auth.digestMutation !== undefined ? { digestMutation: render(auth.digestMutation, scope) as Mutation } : {}),
    ...(auth.bodyHash === false ? { bodyHash: false } : {}),
    ...(auth.token !== undefined ? { token: text(auth.token)! } : {}),
    ...(auth.tokenSecret !== undefined ? { tokenSecret: text(auth.tokenSecret)! } : {}),
    ...(auth.verifier !== undefined ? { verifier: text(auth.verifier)! } : {}),
    ...(auth.callback !== undefined ? { callback: text(auth.callback)! } : {}),
    ...(auth.placement !== undefined ? { placement: placementOf(text(auth.placement)) } : {}),
    ...(auth.tokenMutation !== undefined ? { tokenMutation: render(auth.tokenMutation, scope) as Mutation } : {}),
    ...(auth.secretMutation !== undefined ? { secretMutation: render(auth.secretMutation, scope) as Mutation } : {}),
    ...(auth.clientAuth !== undefined ? { clientAuth: clientAuthOf(text(auth.clientAuth)) } : {}),
    ...(auth.otherClient ? { otherClient: true } : {}),
    ...(auth.client !== undefined ? { client: text(auth.client)! } : {}),
    ...(auth.grant !== undefined ? { grant: text(auth.grant) as Grant } : {}),
    ...(auth.refreshToken !== undefined ? { refreshToken: text(auth.refreshToken)! } : {}),
    ...(auth.code !== undefined ? { code: text(auth.code)! } : {}),
    ...(auth.redirectUri !== undefined && text(auth.redirectUri) !== ''
      ? { redirectUri: text(auth.redirectUri)! }
      : {}),
    ...(auth.codeVerifier !== undefined && text(auth.codeVerifier) !== ''
      ? { codeVerifier: text(auth.codeVerifier)! }
      : {}),
    ...(auth.clientSecret !== undefined
      ? { clientSecret: text(auth.clientSecret) === 'omit' ? ('omit' as const) : ('empty' as const) }
      : {}),
    ...(auth.asConsumer !== undefined ? { asConsumer: text(auth.asConsumer)! } : {}),
    ...(signAs?.url !== undefined ? { signUrl: text(signAs.url)! } : {}),
    ...(auth.signatureMethod !== undefined
      ? { signatureMethod: text(auth.signatureMethod) as 'HMAC-SHA1' | 'HMAC-SHA256' | 'PLAINTEXT' }
      : {}),
    ...(auth.omitParams !== undefined ? { omitParams: auth.omitParams } : {}),
    ...(auth.omitRealm ? { omitRealm: true } : {}),
  };
  return { ...(user !== undefined ? { user } : {}), options };
}
