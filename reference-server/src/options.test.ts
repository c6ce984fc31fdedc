import { describe, expect, it } from 'vitest';
import { resolveServerOptions } from './options.js';
import type { ExchangeListener } from './recording.js';

describe('resolveServerOptions: what each refusal names', () => {
  it.each([
    ['keepAliveTimeoutMs', { keepAliveTimeoutMs: 0 }],
    ['handshakeTimeoutMs', { handshakeTimeoutMs: 1.5 }],
    ['maxConnections', { maxConnections: 0 }],
    ['maxConnectionsPerClient', { maxConnectionsPerClient: 2.5 }],
    ['lingerMs', { lingerMs: -1 }],
    ['nonceShare', { nonceShare: 0 }],
  ] as const)('a bad %s is refused by name', (name, options) => {
    const value = Object.values(options)[0];
    expect(() => resolveServerOptions(options)).toThrow(
      new RangeError(`${name} must be a positive integer, not ${value}`),
    );
  });
});

describe('resolveServerOptions: what is passed through', () => {
  it('leaves oauth1Plaintext off unless asked, and keeps it when asked', () => {
    expect(resolveServerOptions().oauth1Plaintext).toBe(false);
    expect(resolveServerOptions({ oauth1Plaintext: true }).oauth1Plaintext).toBe(true);
    expect(resolveServerOptions({ oauth1Plaintext: false }).oauth1Plaintext).toBe(false);
  });

  it('keeps a dataDir given', () => {
    expect(resolveServerOptions({ dataDir: '/tmp/conform-data' }).dataDir).toBe('/tmp/conform-data');
  });

  it('has no redis key without redis settings, and the filled-in settings with them', () => {
    expect(resolveServerOptions().redis).toBeUndefined();
    expect(resolveServerOptions({ redis: { url: 'redis://127.0.0.1:6379' } }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'conform',
      instance: 1,
      timeoutMs: 2000,
    });
  });

  it('has nonceShare only when given', () => {
    expect(resolveServerOptions().nonceShare).toBeUndefined();
    expect(resolveServerOptions({ nonceShare: 3 }).nonceShare).toBe(3);
  });

  it('keeps an onExchange listener given, and has none otherwise', () => {
    const listener: ExchangeListener = () => {};
    expect(resolveServerOptions({ onExchange: listener }).onExchange).toBe(listener);
    expect(resolveServerOptions().onExchange).toBeUndefined();
  });
});
