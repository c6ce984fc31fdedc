/** Which browser the browser tests use, and the failure when there is none (test/browser.ts), with no browser started. */
import { describe, expect, it } from 'vitest';
import { browserCandidates, HOW_TO_GET_A_BROWSER, launchBrowser, SYSTEM_BROWSERS, type LaunchDeps } from './browser.js';

const only =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);

describe('browserCandidates', () => {
  it('CHROMIUM_PATH alone when set, even with a system browser present', () => {
    expect(browserCandidates({ CHROMIUM_PATH: '/opt/c/chrome' }, only('/opt/c/chrome', '/usr/bin/chromium'))).toEqual([
      { source: 'CHROMIUM_PATH', path: '/opt/c/chrome' },
    ]);
  });

  it('a CHROMIUM_PATH that does not exist is an error, not a fallback', () => {
    expect(() => browserCandidates({ CHROMIUM_PATH: '/nope' }, only('/usr/bin/chromium'))).toThrow(
      /CHROMIUM_PATH=\/nope: no such file/,
    );
  });

  it('system browsers in the listed order, then the npm-packaged one', () => {
    expect(browserCandidates({}, only('/usr/bin/google-chrome', '/usr/bin/chromium'))).toEqual([
      { source: 'system', path: '/usr/bin/chromium' },
      { source: 'system', path: '/usr/bin/google-chrome' },
      { source: '@sparticuz/chromium' },
    ]);
    expect(browserCandidates({ CHROMIUM_PATH: '' }, only())).toEqual([{ source: '@sparticuz/chromium' }]);
  });
});

describe('launchBrowser', () => {
  const deps = (over: Partial<LaunchDeps<string>>): LaunchDeps<string> & { warnings: string[] } => {
    const warnings: string[] = [];
    return {
      env: {},
      exists: only(),
      unpackBundled: () => Promise.resolve('/cache/chromium'),
      launch: (p) => Promise.resolve(`browser@${p}`),
      warn: (m) => warnings.push(m),
      ...over,
      warnings,
    };
  };

  it('uses the system browser when there is one, without unpacking the packaged one', async () => {
    let unpacked = false;
    const d = deps({
      exists: only('/usr/bin/chromium'),
      unpackBundled: () => ((unpacked = true), Promise.resolve('/cache/chromium')),
    });
    expect(await launchBrowser(d)).toEqual({
      browser: 'browser@/usr/bin/chromium',
      executablePath: '/usr/bin/chromium',
      source: 'system',
    });
    expect(unpacked).toBe(false);
  });

  it('falls back to the packaged Chromium when none is installed', async () => {
    expect(await launchBrowser(deps({}))).toMatchObject({
      executablePath: '/cache/chromium',
      source: '@sparticuz/chromium',
    });
  });

  it('a system browser that does not start is reported, and the next one is tried', async () => {
    const d = deps({
      exists: only('/usr/bin/chromium-browser'),
      launch: (p) => (p.startsWith('/usr') ? Promise.reject(new Error('snap stub\nmore')) : Promise.resolve('ok')),
    });
    expect(await launchBrowser(d)).toMatchObject({ source: '@sparticuz/chromium' });
    expect(d.warnings).toEqual(['system /usr/bin/chromium-browser did not start: snap stub; trying the next browser']);
  });

  it('a CHROMIUM_PATH that does not start fails at once', async () => {
    const d = deps({
      env: { CHROMIUM_PATH: '/x/chrome' },
      exists: only('/x/chrome'),
      launch: () => Promise.reject(new Error('bad ELF')),
    });
    await expect(launchBrowser(d)).rejects.toThrow(/CHROMIUM_PATH \/x\/chrome did not start: bad ELF/);
  });

  it('no browser at all: the error names what was tried and how to get one (the test fails, never skips)', async () => {
    const d = deps({
      unpackBundled: () => Promise.reject(new Error('it ships a Linux x64 build; this machine is darwin arm64')),
    });
    const error = await launchBrowser(d).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('CHROMIUM_PATH is unset');
    expect(error?.message).toContain(SYSTEM_BROWSERS[0]);
    expect(error?.message).toContain('@sparticuz/chromium: it ships a Linux x64 build; this machine is darwin arm64');
    expect(error?.message).toContain(HOW_TO_GET_A_BROWSER);
    expect(HOW_TO_GET_A_BROWSER).toMatch(/npm ci[\s\S]*apt-get install chromium[\s\S]*CHROMIUM_PATH/);
  });
});
