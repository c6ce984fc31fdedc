import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OobListener, oobUnreachable } from './oob.js';

describe('out-of-band listener', () => {
  it('reports nothing when not contacted, and a contact with its request line; closing removes the marker file', async () => {
    const oob = await OobListener.start({ host: '127.0.0.1', port: 0, token: 't1' });
    const file = fileURLToPath(oob.scope.file);
    try {
      expect(readFileSync(file, 'utf8')).toBe(oob.scope.marker);
      expect(await oob.contactedWithin(0)).toEqual([]);
      const res = await fetch(`${oob.scope.url}/entity`);
      expect(await res.text()).toBe(oob.scope.marker);
      const found = await oob.contactedWithin(0.5);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain('GET /t1/entity');
    } finally {
      await oob.close();
    }
    expect(existsSync(file)).toBe(false);
  });

  it('shares one folder among the listeners open at a time and removes it when the last closes', async () => {
    const a = await OobListener.start({ host: '127.0.0.1', port: 0, token: 'f1' });
    const b = await OobListener.start({ host: '127.0.0.1', port: 0, token: 'f2' });
    const folder = path.dirname(fileURLToPath(a.scope.file));
    expect(path.dirname(fileURLToPath(b.scope.file))).toBe(folder);
    await a.close();
    expect(existsSync(folder)).toBe(true);
    await b.close();
    expect(existsSync(folder)).toBe(false);
    await expect(OobListener.start({ host: '127.0.0.1', port: -1, token: 'f3' })).rejects.toThrow();
    const c = await OobListener.start({ host: '127.0.0.1', port: 0, token: 'f4' });
    await c.close();
    expect(existsSync(path.dirname(fileURLToPath(c.scope.file)))).toBe(false);
  });

  it('uses oob.url as the base the target is given', async () => {
    const oob = await OobListener.start({ host: '127.0.0.1', port: 0, token: 't2', url: 'http://harness.example:9' });
    try {
      expect(oob.scope.url).toBe('http://harness.example:9/t2');
    } finally {
      await oob.close();
    }
  });

  it('is unreachable from a target not on loopback unless oob.url is set', () => {
    expect(oobUnreachable('http://127.0.0.1:8080/', undefined)).toBeNull();
    expect(oobUnreachable('https://[::1]:8443/', undefined)).toBeNull();
    expect(oobUnreachable('https://api.example/', undefined)).toMatch(/oob\.url/);
    expect(oobUnreachable('https://api.example/', 'http://10.0.0.5:8099')).toBeNull();
  });
});
