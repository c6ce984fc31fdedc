import { describe, expect, it } from 'vitest';
import type { RawExchange } from '../runner/exec-types.js';
import { orderedExchanges } from './together.js';

const x = (url: string): RawExchange => ({ step: 0, request: { method: 'GET', url, headers: {} } });
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('questions asked together', () => {
  it('are reported in the order asked, whatever order the answers come in (as the sequential learning did)', async () => {
    const exchanges: RawExchange[] = [];
    const { record, together } = orderedExchanges(exchanges);
    record(x('http://t/before'));
    const ask = (name: string, ms: number) => async () => {
      record(x(`http://t/${name}/token`));
      await later(ms);
      record(x(`http://t/${name}`));
      return name;
    };
    const out = await together([
      ask('slow', 30),
      async () => {
        // Asked together inside a question asked together: still in its place.
        const inner = await together([ask('inner-slow', 20), ask('inner-fast', 1)]);
        return inner.join('+');
      },
      ask('fast', 1),
    ]);
    record(x('http://t/after'));
    expect(out).toEqual(['slow', 'inner-slow+inner-fast', 'fast']);
    expect(exchanges.map((e) => new URL(e.request.url).pathname)).toEqual([
      '/before',
      '/slow/token',
      '/slow',
      '/inner-slow/token',
      '/inner-slow',
      '/inner-fast/token',
      '/inner-fast',
      '/fast/token',
      '/fast',
      '/after',
    ]);
  });
});
