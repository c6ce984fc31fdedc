/**
 * Switches faults on: {@link faultKit} turns fault names into what the server reads once at start — patched rules,
 * one rewrite of answers, the named hooks, the IO shell's settings. Every fault has its definition in one of the
 * groups below (a name without one does not compile).
 */
import { RULES } from '../rules.js';
import type { AnswerRewrite, FaultHooks, HandlerDeps, Rules } from '../types.js';
import { ACCESS_FAULTS } from './access.js';
import { ANSWER_FAULTS } from './answers.js';
import { ARTICLE_FAULTS } from './articles.js';
import { AUTH_FAULTS } from './auth.js';
import { CONCURRENCY_FAULTS } from './concurrency.js';
import { DeferredWrites } from './deferred.js';
import { DIGEST_FAULTS } from './digests.js';
import { CORRECT_IO } from './define.js';
import type { FaultDefinition, FaultFactory, FaultShared, IoFaults, RulesPatch } from './define.js';
import { HISTORY_FAULTS } from './history.js';
import { IO_FAULTS } from './io.js';
import { MEMORY_FAULTS } from './memory.js';
import { OAUTH_FAULTS } from './oauth.js';
import { FAULT_NAMES } from './registry.js';
import type { FaultName } from './registry.js';

export type { IoFaults } from './define.js';

const DEFINITIONS: Readonly<Record<FaultName, FaultFactory>> = {
  ...ANSWER_FAULTS,
  ...ACCESS_FAULTS,
  ...ARTICLE_FAULTS,
  ...HISTORY_FAULTS,
  ...CONCURRENCY_FAULTS,
  ...AUTH_FAULTS,
  ...DIGEST_FAULTS,
  ...MEMORY_FAULTS,
  ...OAUTH_FAULTS,
  ...IO_FAULTS,
};

/** What a server with some faults switched on reads: the part its handlers get, and the IO shell's. */
export interface FaultKit {
  /** The fields of `HandlerDeps` the faults fill: `rules` always, `rewrite` and `hooks` when a fault has them. */
  deps: Pick<HandlerDeps, 'rules' | 'rewrite' | 'hooks'>;
  io: IoFaults;
}

/**
 * The kit of `faults`, made once per server (each fault's memory is that server's). Faults apply in registry order:
 * a patch sees the rules the earlier ones made, a rewrite the answer the earlier ones rewrote, and for the hooks
 * that wrap (`served`, `article`) the earlier fault is the outer one. With no fault, the correct server.
 */
export function faultKit(faults: Iterable<FaultName>): FaultKit {
  const on = new Set(faults);
  const shared: FaultShared = { deferred: new DeferredWrites() };
  const definitions = FAULT_NAMES.filter((name) => on.has(name)).map((name) => made(DEFINITIONS[name], shared));
  let rules = RULES;
  for (const d of definitions) if (d.rules) rules = patched(rules, d.rules);
  const rewrites = definitions.flatMap((d) => (d.rewrite ? [d.rewrite] : []));
  const rewrite: AnswerRewrite | undefined =
    rewrites.length === 0 ? undefined : (req, res, ctx) => rewrites.reduce((answer, r) => r(req, answer, ctx), res);
  const hooks = composeHooks(definitions.flatMap((d) => (d.hooks ? [d.hooks] : [])));
  const io = definitions.reduce<IoFaults>((sofar, d) => ({ ...sofar, ...d.io }), CORRECT_IO);
  return { deps: { rules, ...(rewrite ? { rewrite } : {}), ...(hooks ? { hooks } : {}) }, io };
}

function made(factory: FaultFactory, shared: FaultShared): FaultDefinition {
  return typeof factory === 'function' ? factory(shared) : factory;
}

function patched(rules: Rules, patch: RulesPatch): Rules {
  const out = { ...rules };
  for (const group of Object.keys(patch) as (keyof Rules)[]) {
    const change = patch[group] as ((prev: Rules[typeof group]) => object) | undefined;
    if (change !== undefined) Object.assign(out, { [group]: { ...rules[group], ...change(rules[group]) } });
  }
  return out;
}

/**
 * One set of hooks from several: `served` and `article` wrap (the first outermost; one function given twice, as the
 * writes left for later are, runs once), `identified` and `digestChecked` pass their answer on, `unauthorizedWrite`
 * and `postId` take the first answer given. Undefined when there is none.
 */
function composeHooks(all: readonly FaultHooks[]): FaultHooks | undefined {
  if (all.length === 0) return undefined;
  const each = <K extends keyof FaultHooks>(name: K): NonNullable<FaultHooks[K]>[] => [
    ...new Set(all.flatMap((h) => (h[name] ? [h[name]] : []))),
  ];
  const hooks: FaultHooks = {};
  const served = each('served');
  if (served.length > 0)
    hooks.served = served.reduceRight(
      (inner, outer) => (req, state, deps, next) => outer(req, state, deps, (r, s, d) => inner(r, s, d, next)),
    );
  const article = each('article');
  if (article.length > 0)
    hooks.article = article.reduceRight(
      (inner, outer) => (ctx, call, next) => outer(ctx, call, (c) => inner(c, call, next)),
    );
  const identified = each('identified');
  if (identified.length > 0)
    hooks.identified = (req, verification, identity) =>
      identified.reduce((sofar, h) => h(req, verification, sofar), identity);
  const digestChecked = each('digestChecked');
  if (digestChecked.length > 0)
    hooks.digestChecked = (verification, nonce, nonces, nowMs) =>
      digestChecked.reduce((sofar, h) => h(sofar, nonce, nonces, nowMs), verification);
  const unauthorizedWrite = each('unauthorizedWrite');
  if (unauthorizedWrite.length > 0) {
    hooks.unauthorizedWrite = (ctx, write) => {
      for (const h of unauthorizedWrite) {
        const answer = h(ctx, write);
        if (answer !== undefined) return answer;
      }
      return undefined;
    };
  }
  const postId = each('postId');
  if (postId.length > 0) hooks.postId = (ctx) => postId.reduce<string | undefined>((id, h) => id ?? h(ctx), undefined);
  return hooks;
}
