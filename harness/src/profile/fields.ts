/** Value shapes and helpers shared by the parts of the profile schema. */
import { z } from 'zod';

export const PathTemplate = z.string().regex(/^\//, 'a path starts with "/"');
export const Url = z.string().regex(/^https?:\/\/[^\s]+$/, 'an http:// or https:// URL');

/** `o` without its undefined entries, so optional keys stay absent rather than present and undefined. */
export function stripUndefined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/** The dotted paths of every key `data` holds, objects walked into, lists and scalars as leaves. */
export function declaredKeys(data: unknown, prefix = ''): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return prefix === '' ? [] : [prefix];
  const keys = prefix === '' ? [] : [prefix];
  for (const [k, v] of Object.entries(data))
    if (v !== undefined) keys.push(...declaredKeys(v, prefix === '' ? k : `${prefix}.${k}`));
  return keys;
}
