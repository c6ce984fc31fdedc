/**
 * The Chromium that browser tests open pages in, found without asking the user to install anything: `CHROMIUM_PATH`
 * when set (an explicit choice, used or reported, never passed over), else the system's Chromium or Chrome at the
 * usual places, else the Linux x64 Chromium that `npm ci` brings inside the `@sparticuz/chromium` package (unpacked
 * once into `node_modules/.cache/`). When none starts, the error says how to get one: a browser test fails, it never
 * skips.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where a system Chromium or Chrome usually lives (Debian/Ubuntu, Fedora, snap, Google's packages, macOS). */
export const SYSTEM_BROWSERS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export const HOW_TO_GET_A_BROWSER =
  'To get one: run `npm ci` on Linux x64 (it installs @sparticuz/chromium, a Chromium inside an npm package), ' +
  'or install Chromium or Chrome (Debian/Ubuntu: `apt-get install chromium`; macOS: `brew install --cask chromium`), ' +
  'or set CHROMIUM_PATH to a Chromium or Chrome executable.';

export type BrowserSource = 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';

/** A browser to try: an executable path, or the npm-packaged one (unpacked on first use). */
export type BrowserCandidate = { source: 'CHROMIUM_PATH' | 'system'; path: string } | { source: '@sparticuz/chromium' };

/** The candidates in the order they are tried. Pure: `exists` is injected. */
export function browserCandidates(
  env: Record<string, string | undefined>,
  exists: (file: string) => boolean,
): BrowserCandidate[] {
  const chosen = env['CHROMIUM_PATH'];
  if (chosen) {
    if (!exists(chosen)) throw new Error(`CHROMIUM_PATH=${chosen}: no such file. ${HOW_TO_GET_A_BROWSER}`);
    return [{ source: 'CHROMIUM_PATH', path: chosen }];
  }
  return [
    ...SYSTEM_BROWSERS.filter((p) => exists(p)).map((p) => ({ source: 'system' as const, path: p })),
    { source: '@sparticuz/chromium' },
  ];
}

export interface LaunchDeps<B> {
  env: Record<string, string | undefined>;
  exists: (file: string) => boolean;
  /** Unpacks the npm-packaged Chromium and returns its executable; throws why it cannot. */
  unpackBundled: () => Promise<string>;
  launch: (executablePath: string) => Promise<B>;
  /** Told when a system browser did not start and the next candidate is tried. */
  warn: (message: string) => void;
}

/**
 * Launches the first candidate that starts. A system browser that does not start (a snap stub, a broken install) is
 * reported through `warn` and the next one is tried; `CHROMIUM_PATH` is never passed over. Throws, with every
 * candidate's reason and how to get a browser, when none starts.
 */
export async function launchBrowser<B>(
  deps: LaunchDeps<B>,
): Promise<{ browser: B; executablePath: string; source: BrowserSource }> {
  const failures: string[] = [];
  for (const candidate of browserCandidates(deps.env, deps.exists)) {
    let executablePath: string;
    try {
      executablePath = candidate.source === '@sparticuz/chromium' ? await deps.unpackBundled() : candidate.path;
    } catch (cause) {
      failures.push(`@sparticuz/chromium: ${messageOf(cause)}`);
      continue;
    }
    try {
      return { browser: await deps.launch(executablePath), executablePath, source: candidate.source };
    } catch (cause) {
      const failure = `${candidate.source} ${executablePath} did not start: ${messageOf(cause)}`;
      if (candidate.source === 'CHROMIUM_PATH') throw new Error(`${failure}\n${HOW_TO_GET_A_BROWSER}`, { cause });
      failures.push(failure);
      deps.warn(`${failure}; trying the next browser`);
    }
  }
  const looked = `CHROMIUM_PATH is unset; looked for ${SYSTEM_BROWSERS.join(', ')}`;
  throw new Error(
    `No Chromium could be started for the browser tests (${looked}).\n${failures.join('\n')}\n${HOW_TO_GET_A_BROWSER}`,
  );
}

function messageOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

/**
 * Unpacks `@sparticuz/chromium`'s Chromium into `node_modules/.cache/conform-chromium/VERSION/` (about 1.5 s, once per
 * `npm ci`) and returns the executable. The package unpacks into `os.tmpdir()` and reuses whatever `chromium` it
 * finds there; pointing `TMPDIR` at a private folder, then renaming that folder into place, keeps a half-written or
 * other-version binary in a shared /tmp from ever being launched, and lets parallel runs race safely.
 */
export async function unpackBundledChromium(
  cacheRoot = path.join(ROOT, 'node_modules', '.cache', 'conform-chromium'),
): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`it ships a Linux x64 build; this machine is ${process.platform} ${process.arch}`);
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch {
    throw new Error('not installed (run `npm ci`)');
  }
  const pkg = JSON.parse(readFileSync(path.join(entry, '..', '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = path.join(cacheRoot, pkg.version);
  const executable = path.join(dir, 'chromium');
  if (existsSync(executable)) return executable;

  await mkdir(cacheRoot, { recursive: true });
  const work = await mkdtemp(path.join(cacheRoot, `${pkg.version}.partial-`));
  const saved = process.env['TMPDIR'];
  try {
    process.env['TMPDIR'] = work;
    const { default: Chromium } = await import('@sparticuz/chromium');
    const unpacked = await Chromium.executablePath();
    if (unpacked !== path.join(work, 'chromium')) throw new Error(`unpacked to ${unpacked}, expected ${work}/chromium`);
  } catch (e) {
    await rm(work, { recursive: true, force: true });
    throw e;
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
  }
  try {
    await rename(work, dir);
  } catch (e) {
    // Another run unpacked the same version first: use its copy.
    await rm(work, { recursive: true, force: true });
    if (!existsSync(executable)) throw e;
  }
  return executable;
}
