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
