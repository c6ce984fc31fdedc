import { describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../profile/schema.js';
import { instanceNumber, instanceNumbers, toInstance } from './instances.js';

const deps = {
  profile: {
    target: {
      insecure: false,
      instances: [
        { http: 'http://10.0.0.1:81', https: 'https://10.0.0.1:444' },
        { http: 'http://10.0.0.2:81/api/' },
        { https: 'https://10.0.0.3' },
      ],
    },
  } as unknown as ResolvedProfile,
};

describe('sending to an instance', () => {
  it('numbers the instances from 1 and refuses a number the profile does not list', () => {
    expect(instanceNumbers(deps)).toEqual([1, 2, 3]);
    expect(instanceNumber(2, deps)).toBe(2);
    expect(instanceNumber('1', deps)).toBe(1);
    for (const bad of [0, 4, 1.5, 'x', undefined])
      expect(instanceNumber(bad, deps)).toEqual({ error: expect.stringMatching(/is not one of the 3 instances/) });
  });

  it('moves a request to the instance with the Host it was sent with, bytes otherwise unchanged', () => {
    const built = {
      request: {
        method: 'GET',
        url: 'http://lb.example/api/users/a?x=1',
        headers: { authentication: 'hmac a:1:d' },
        body: 'b',
      },
      base: 'http://lb.example/api',
    };
    expect(toInstance(built, 2, deps)).toEqual({
      request: {
        method: 'GET',
        url: 'http://10.0.0.2:81/api/users/a?x=1',
        headers: { host: 'lb.example', authentication: 'hmac a:1:d' },
        body: 'b',
      },
      base: 'http://10.0.0.2:81/api/',
      instance: 2,
    });
    const moved = toInstance(built, 1, deps);
    const again = 'error' in moved ? moved : toInstance(moved, 2, deps);
    expect('error' in again ? again : again.request.headers['host']).toBe('lb.example');
  });

  it('keeps the transport, and says so when the instance has none', () => {
    const tls = { request: { method: 'GET', url: 'https://lb.example/r', headers: {} }, base: 'https://lb.example' };
    expect(toInstance(tls, 1, deps)).toMatchObject({
      request: { url: 'https://10.0.0.1:444/r', headers: { host: 'lb.example' } },
    });
    expect(toInstance(tls, 2, deps)).toEqual({
      error: "instance 2 has no TLS (https) base URL in the profile's target.instances",
    });
    const plain = { request: { method: 'GET', url: 'http://lb.example/r', headers: {} }, base: 'http://lb.example' };
    expect(toInstance(plain, 3, deps)).toMatchObject({
      request: { url: 'https://10.0.0.3/r', headers: { host: 'lb.example' } },
    });
  });
});
