/** The steps that obtain OAuth credentials the target's way: `approve` (OAuth 1), `authorize` and `token` (OAuth 2). */
import type { StepData } from '../suite/schema.js';
import { stringify, type Scope } from '../suite/template.js';
import { authorizeCode, type TokenExchange } from '../oauth/index.js';
import type { OAuth2Actor } from '../profile/schema.js';
import { tokensOf } from './credentials.js';
import type { ExecDeps } from './exec-types.js';
import { instanceBase } from './instances.js';
import { render } from './render.js';
import { instanceOf } from './step-plan.js';

/** What an `approve` step gave: the verifier (empty for a denial's answer without one), or why there is none. */
export type ApproveStepResult =
  | { ok: true; verifier: string; exchanges: TokenExchange[] }
  | { ok: false; reason: string; exchanges: TokenExchange[] };

/**
 * An `approve` step: the owner approves the temporary credentials, the target's way (oauth/approval.ts) — or, with
 * `deny`, denies them, and the verifier is the one the target's answer carried (empty when none).
 */
export async function approveStep(step: StepData, scope: Scope, deps: ExecDeps): Promise<ApproveStepResult> {
  const a = step.approve!;
  const instance = instanceOf(step.instance, scope, deps);
  if (typeof instance === 'object') return { ok: false, reason: instance.error, exchanges: [] };
  const token = stringify(render(a.token, scope));
  const user = a.user !== undefined ? stringify(render(a.user, scope)) : deps.profile.auth.oauth1?.user;
  if (!deps.profile.auth.oauth1) return { ok: false, reason: 'the profile has no auth.oauth1 settings', exchanges: [] };
  if (!user)
    return {
      ok: false,
      reason: 'the profile names no resource owner (auth.oauth1.user, or a first user)',
      exchanges: [],
    };
  // Owner credentials (Basic among them) go over TLS when a TLS base URL is known; to one instance, with `instance`.
  const own = instance === undefined ? undefined : instanceBase(deps, instance, deps.bases.tls !== undefined);
  if (own !== undefined && 'error' in own) return { ok: false, reason: own.error, exchanges: [] };
  const base = own?.base ?? deps.bases.tls ?? deps.bases.primary;
  const { approver } = tokensOf(deps);
  if (!a.deny) return approver.approve(token, user, base);
  const denied = await approver.deny(token, user, base);
  return denied.ok ? { ok: true, verifier: denied.verifier ?? '', exchanges: denied.exchanges } : denied;
}

/** What an `authorize` or `token` step gave: the names it puts in scope, or why there is nothing. */
export type OAuth2StepResult =
  | { ok: true; values: Record<string, unknown>; exchanges: TokenExchange[] }
  | { ok: false; reason: string; exchanges: TokenExchange[] };

/** An `authorize` step: an OAuth 2 authorization request the owner approves; the code (oauth/code-flow.ts). */
export async function authorizeStep(step: StepData, scope: Scope, deps: ExecDeps): Promise<OAuth2StepResult> {
  const a = step.authorize!;
  const user = a.user !== undefined ? stringify(render(a.user, scope)) : deps.profile.users[0]?.name;
  if (!user) return { ok: false, reason: 'the profile lists no users', exchanges: [] };
  const redirectUri = a.redirectUri !== undefined ? stringify(render(a.redirectUri, scope)) : undefined;
  const got = await authorizeCode(
    {
      client: deps.client,
      profile: deps.profile,
      authenticator: deps.authenticator,
      secret: (v) => deps.redactor.add(v),
    },
    {
      clientId: stringify(render(a.client, scope)),
      user,
      base: deps.bases.tls ?? deps.bases.primary,
      ...(redirectUri !== undefined ? { redirectUri } : {}),
    },
  );
  if (!got.ok) return got;
  return {
    ok: true,
    values: { [a.as]: got.code, [`${a.as}Verifier`]: got.verifier, [`${a.as}RedirectUri`]: got.redirectUri ?? '' },
    exchanges: got.exchanges,
  };
}

/** A `token` step: a fresh access token of the actor, any grant (oauth/grants.ts). */
export async function tokenStep(step: StepData, scope: Scope, deps: ExecDeps): Promise<OAuth2StepResult> {
  const t = step.token!;
  const actor = render(t.actor, scope) as OAuth2Actor | undefined;
  if (typeof actor !== 'object' || actor === null || typeof actor.clientId !== 'string')
    return { ok: false, reason: 'token.actor is not an OAuth 2 actor ({ clientId, grant, user })', exchanges: [] };
  const got = await tokensOf(deps).oauth2Fresh(actor, deps.bases.tls ?? deps.bases.primary);
  if (!got.ok) return got;
  return {
    ok: true,
    values: {
      [t.as]: got.token,
      ...(got.expiresIn !== undefined ? { [`${t.as}Ttl`]: got.expiresIn } : {}),
      [`${t.as}Refresh`]: got.refreshToken ?? '',
    },
    exchanges: got.exchanges,
  };
}

/**
 * An `approve`, `authorize` or `token` step, whichever `step` is: the names it puts in scope (an `approve` the
 * verifier under its `as`, empty for an optional approval that failed), or why there is nothing.
 */
export async function oauthStep(step: StepData, scope: Scope, deps: ExecDeps): Promise<OAuth2StepResult> {
  if (step.approve === undefined)
    return step.authorize !== undefined ? authorizeStep(step, scope, deps) : tokenStep(step, scope, deps);
  const approval = await approveStep(step, scope, deps);
  if (!approval.ok && !step.approve.optional) return approval;
  return {
    ok: true,
    values: { [step.approve.as]: approval.ok ? approval.verifier : '' },
    exchanges: approval.exchanges,
  };
}
