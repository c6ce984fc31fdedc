/** The `options` and `oob` parts of a resolved profile (schema.ts resolves the rest). */
import { z } from 'zod';

/** Resources OPTIONS may be implemented on: the article collection and items, `/`, the per-user records. */
export const OptionsResourceSchema = z.enum(['collection', 'item', 'root', 'records']);
export type OptionsResource = z.infer<typeof OptionsResourceSchema>;

/** The resolved `options` of a profile, but `allowDependsOnAuth`. */
interface OptionsOn {
  /** OPTIONS is implemented on the collection and the items. */
  implemented: boolean;
  /** Every resource it is implemented on. */
  on: OptionsResource[];
}

const OPTIONS_RESOURCES: readonly OptionsResource[] = ['collection', 'item', 'root', 'records'];

/** `oob.listen` ("host:port", brackets around an IPv6 host) and `oob.url`, resolved. */
export function resolveOob(o: { listen?: string | undefined; url?: string | undefined } | undefined): {
  host: string;
  port: number;
  url?: string;
} {
  const m = /^\[?(.*?)\]?:([0-9]+)$/.exec(o?.listen ?? '127.0.0.1:0');
  return {
    host: m?.[1] ?? '127.0.0.1',
    port: Number(m?.[2] ?? 0),
    ...(o?.url !== undefined ? { url: o.url.replace(/\/+$/, '') } : {}),
  };
}

export function resolveOptions(implemented: boolean | OptionsResource[]): OptionsOn {
  return resolveOptionsOn(implemented === true ? [...OPTIONS_RESOURCES] : implemented === false ? [] : implemented);
}

/** `options.implemented` and `options.on` for the resources OPTIONS is implemented on. */
export function resolveOptionsOn(on: readonly OptionsResource[]): OptionsOn {
  const list = OPTIONS_RESOURCES.filter((r) => on.includes(r));
  return { implemented: list.includes('collection') && list.includes('item'), on: list };
}
