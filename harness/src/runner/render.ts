/** Templates as the step interpreter renders them (compiled once per source text), and the value tests it needs. */
import { compileTemplate, renderTemplate, truthyValue, type CompiledTemplate, type Scope } from '../suite/template.js';

const cache = new Map<string, CompiledTemplate>();

export function render(source: string, scope: Scope): unknown {
  if (!source.includes('{{')) return source;
  let t = cache.get(source);
  if (!t) {
    t = compileTemplate(source);
    cache.set(source, t);
  }
  return renderTemplate(t, scope);
}

export const truthy = truthyValue;

export function toList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

export function num(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
