/**
 * The HTML report, opened in real headless Chromium: it renders a real run (reference server with the `post-200`
 * fault), its matrix counts match `run.rules`, failures come first and expand to the failure, counterexample and
 * replay command, no request leaves the page, and target-controlled text stays inert. The browser is the system's
 * Chromium or Chrome, or the one inside the @sparticuz/chromium package (test/browser.ts); with none, this fails.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { replayCommand } from '../cli/src/commands/run.js';
import { parseRunArgs } from '../cli/src/commands/run-options.js';
import type { CliIo } from '../cli/src/io.js';
import { renderHtml } from '../harness/src/report/html.js';
import { FILE_REPORTERS } from '../harness/src/report/registry.js';
import type { RuleStatus, RunResult, ScenarioResult } from '../harness/src/runner/types.js';
import { launchBrowser, unpackBundledChromium } from './browser.js';
import { it } from './fixtures.js';
import { ROOT, runAgainst, withReferenceServer } from './helpers.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WAIT_MS = 10_000;

const FAILING = 'articles/post-create';
const PASSING = 'articles/put-create';
const SELECTION = [FAILING, PASSING, 'auth/nonce-global', 'methods/unlisted-rejected'];
const FAULTS = ['post-200'];
const RUNS = 5;
const SEED = 1;

const LEVELS = ['MUST', 'SHOULD', 'MAY'] as const;
const RULE_STATUSES: RuleStatus[] = ['passed', 'failed', 'errored', 'skipped', 'uncovered'];

const SCRIPT_PAYLOAD = '<script>window.__pwned = "script"</script>';
const ATTR_PAYLOAD = '"><img src=x onerror="window.__pwned = \'img\'">';

let browser: Browser | undefined;
/** Why no browser started: every test that needs one fails with it (how to get a browser included), none skips. */
let launchError: Error | undefined;
let run: RunResult;

/** The CLI's own replay command for a result (what `conform run --embedded --fault post-200` would print). */
function cliReplay(r: ScenarioResult): string {
  const io: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: ROOT };
  const argv = ['--embedded', ...FAULTS.flatMap((f) => ['--fault', f]), '--seed', String(SEED), '--runs', String(RUNS)];
  const options = parseRunArgs(argv, io);
  if (options === 'help') throw new Error('unexpected help');
  return replayCommand(options, io, r.id, r.counterexample?.path);
}

/** Independent expectation of the report's scenario order: failed MUST, errored, failed SHOULD/MAY, skipped, passed. */
function rank(s: ScenarioResult): number {
  if (s.status === 'failed') return s.level === 'MUST' ? 0 : 2;
  return { errored: 1, skipped: 3, passed: 4 }[s.status];
}

/** Spec order written independently of the reporter: numbered sections numerically, then the rest by first use. */
function specOrder(rules: RunResult['rules']): string[] {
  const seen = [...new Set(rules.map((r) => r.section))];
  const numbered = seen.filter((s) => /^\d+(\.\d+)*$/.test(s));
  const key = (s: string) =>
    s
      .split('.')
      .map((n) => n.padStart(4, '0'))
      .join('.');
  return [...numbered.sort((a, b) => key(a).localeCompare(key(b))), ...seen.filter((s) => !numbered.includes(s))];
}

interface Opened {
  context: BrowserContext;
  page: Page;
  url: string;
  requests: string[];
  problems: string[];
}

/** Writes the HTML into `dir` and opens it in a fresh context, recording every request and every error. */
async function open(
  dir: string,
  html: string,
  name: string,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<Opened> {
  if (launchError) throw launchError;
  if (!browser) throw new Error('browser not started');
  const file = path.join(dir, name);
  await writeFile(file, html);
  const url = pathToFileURL(file).href;
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, url, requests, problems };
}

/** Every request the page made was the report file itself (or an inert data:/about: URL). */
function expectNoNetwork(o: Opened): void {
  const outside = o.requests.filter(
    (u) => u.split('#')[0] !== o.url && !u.startsWith('data:') && !u.startsWith('about:'),
  );
  expect(outside).toEqual([]);
  expect(o.requests.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  run = await withReferenceServer({ faults: ['post-200'] }, (server) =>
    runAgainst(server, { filter: SELECTION, runs: RUNS, seed: SEED }),
  );
  // runAgainst has no command line; give failures the replay command the CLI itself builds.
  for (const s of run.scenarios) if (s.status === 'failed' || s.status === 'errored') s.replay = cliReplay(s);
  try {
    const launched = await launchBrowser({
      env: process.env,
      exists: existsSync,
      unpackBundled: () => unpackBundledChromium(),
      launch: (executablePath) => chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 30_000 }),
      warn: (message) => console.warn(message),
    });
    browser = launched.browser;
    console.info(`HTML report test: Chromium from ${launched.source} (${launched.executablePath})`);
  } catch (e) {
    launchError = e instanceof Error ? e : new Error(String(e));
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('HTML report', () => {
  it('is registered as report.html', () => {
    expect(FILE_REPORTERS['html']?.file).toBe('report.html');
    expect(FILE_REPORTERS['html']?.render).toBe(renderHtml);
  });

  it('the run has what the page must show: a failing MUST scenario with a counterexample, and a passing one', () => {
    const failing = run.scenarios.find((s) => s.id === FAILING);
    expect(failing?.status).toBe('failed');
    expect(failing?.level).toBe('MUST');
    expect(failing?.counterexample).toBeDefined();
    expect(failing?.replay).toContain(`--filter ${FAILING}`);
    expect(run.scenarios.find((s) => s.id === PASSING)?.status).toBe('passed');
  });

  it('renders: title, FAIL banner with exit code 1, run facts, no network, no errors', async ({ tempDir }) => {
    const o = await open(tempDir, renderHtml(run), 'report.html');
    try {
      const { page } = o;
      expect(await page.title()).toMatch(/conform report: FAIL/);
      await expect.poll(() => page.getByTestId('verdict-label').textContent(), { timeout: WAIT_MS }).toBe('FAIL');
      expect(await page.getByTestId('verdict').getAttribute('data-exit-code')).toBe('1');
      expect(await page.getByTestId('exit-code').textContent()).toBe('exit code 1');
      expect(await page.getByTestId('meta-target').textContent()).toBe(run.target);
      expect(await page.getByTestId('meta-seed').textContent()).toBe(String(SEED));
      expect(await page.getByTestId('meta-started').textContent()).toBe(run.startedAt);
      expect(await page.getByTestId('summary-failed').textContent()).toBe(String(run.summary.failed));
      expect(await page.getByTestId('summary-passed').textContent()).toBe(String(run.summary.passed));
      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(csp).toContain("default-src 'none'");
      expect(await page.locator('link, img, iframe, object, embed, script[src]').count()).toBe(0);
      expectNoNetwork(o);
      expect(o.problems).toEqual([]);
    } finally {
      await o.context.close();
    }
  });

  it('matrix: every section × level × status cell equals the count from run.rules, sections in spec order', async ({
    tempDir,
  }) => {
    const o = await open(tempDir, renderHtml(run), 'matrix.html');
    try {
      const pairs = await o.page
        .locator('[data-testid^="matrix-"]')
        .evaluateAll((els) =>
          els.map((el) => [el.getAttribute('data-testid') ?? '', (el.textContent ?? '').trim()] as const),
        );
      const cells: Record<string, string> = Object.fromEntries(pairs);
      const sections = specOrder(run.rules);
      expect(sections.length).toBeGreaterThan(5);
      const count = (pred: (r: RunResult['rules'][number]) => boolean) => String(run.rules.filter(pred).length);
      let checked = 0;
      for (const status of RULE_STATUSES) {
        for (const section of sections) {
          for (const level of LEVELS) {
            expect(cells[`matrix-${section}-${level}-${status}`], `${section} ${level} ${status}`).toBe(
              count((r) => r.section === section && r.level === level && r.status === status),
            );
            checked++;
          }
          expect(cells[`matrix-${section}-all-${status}`], `${section} all ${status}`).toBe(
            count((r) => r.section === section && r.status === status),
          );
        }
        for (const level of LEVELS)
          expect(cells[`matrix-total-${level}-${status}`], `total ${level} ${status}`).toBe(
            count((r) => r.level === level && r.status === status),
          );
        expect(cells[`matrix-total-all-${status}`], `total ${status}`).toBe(count((r) => r.status === status));
      }
      expect(checked).toBe(sections.length * LEVELS.length * RULE_STATUSES.length);
      // The selection leaves most of the catalogue uncovered, and the fault fails some rules: both show.
      expect(Number(cells['matrix-total-all-failed'])).toBeGreaterThan(0);
      expect(Number(cells['matrix-total-all-uncovered'])).toBeGreaterThan(0);
      const rows = await o.page
        .locator('table.matrix tbody tr')
        .evaluateAll((trs) => trs.map((tr) => (tr.getAttribute('data-testid') ?? '').replace(/^matrix-row-/, '')));
      expect(rows).toEqual(sections);
      expect(await o.page.getByTestId('rule-row').count()).toBe(run.rules.length);
    } finally {
      await o.context.close();
    }
  });

  it('lists failures first; a failure is collapsed and expands to its message, counterexample and replay command', async ({
    tempDir,
  }) => {
    const o = await open(tempDir, renderHtml(run), 'scenarios.html');
    try {
      const { page } = o;
      const ids = await page
        .locator('details[data-testid="scenario"]')
        .evaluateAll((ds) => ds.map((d) => d.getAttribute('data-id')));
      const expected = run.scenarios
        .map((s, i) => ({ s, i }))
        .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
        .map((x) => x.s.id);
      expect(ids).toEqual(expected);
      expect(ids.indexOf(FAILING)).toBeLessThan(ids.indexOf(PASSING));
      expect(ids[0]).toBe(FAILING);

      const failing = run.scenarios.find((s) => s.id === FAILING)!;
      const details = page.locator(`details[data-id="${FAILING}"]`);
      expect(await details.evaluate((d) => d.hasAttribute('open'))).toBe(false);
      expect(await details.getByTestId('failure').isVisible()).toBe(false);
      expect(await details.locator(':scope > summary').textContent()).toContain(failing.title);

      await details.locator(':scope > summary').click();
      await expect.poll(() => details.evaluate((d) => d.hasAttribute('open')), { timeout: WAIT_MS }).toBe(true);
      const failure = details.getByTestId('failure');
      await failure.waitFor({ state: 'visible', timeout: WAIT_MS });
      const message = failing.failure?.messages[0] ?? failing.reason ?? '';
      expect(message).not.toBe('');
      expect(await failure.textContent()).toContain(message);

      const cex = failing.counterexample!;
      expect(await details.getByTestId('counterexample').isVisible()).toBe(true);
      expect(JSON.parse((await details.getByTestId('cex-values').textContent()) ?? '')).toEqual(cex.values);
      expect(await details.getByTestId('cex-seed').textContent()).toBe(String(cex.seed));
      expect(await details.getByTestId('cex-path').textContent()).toBe(cex.path);

      const replay = details.getByTestId('replay');
      expect(await replay.isVisible()).toBe(true);
      expect(await replay.textContent()).toBe(failing.replay);
      expect(failing.replay).toContain(`--replay ${cex.path}`);
      expect(failing.replay).toContain('--fault post-200');

      // The transcript shows the request that went wrong and the answer it got.
      const transcript = await details.locator('.transcript').textContent();
      expect(transcript).toContain(failing.transcript[0]!.request.url);
      expect(transcript).toContain(String(failing.transcript[0]!.response?.status));

      // Each exchange holds its request as curl, collapsed, with a Copy button; credentials only as placeholders.
      const curl = details.locator('details.curl').first();
      expect(await curl.getByTestId('curl').isVisible()).toBe(false);
      await curl.locator(':scope > summary').click();
      await curl.getByTestId('curl').waitFor({ state: 'visible', timeout: WAIT_MS });
      const command = (await curl.getByTestId('curl').textContent()) ?? '';
      expect(command).toContain(`curl -sS -i -X ${failing.transcript[0]!.request.method}`);
      expect(command).toContain(failing.transcript[0]!.request.url);
      expect(command).toContain('"$CONFORM_AUTHENTICATION"');
      expect(command).not.toContain('[redacted]');
      expect(await curl.locator('button.copy').isVisible()).toBe(true);

      // Passing scenarios stay collapsed.
      expect(await page.locator(`details[data-id="${PASSING}"]`).evaluate((d) => d.hasAttribute('open'))).toBe(false);

      // The filter box narrows the list by id; unticking a status hides that status.
      await page.locator('#filter-text').fill('put-create');
      await expect.poll(() => details.isHidden(), { timeout: WAIT_MS }).toBe(true);
      expect(await page.locator(`details[data-id="${PASSING}"]`).isVisible()).toBe(true);
      await page.locator('#filter-text').fill('');
      await page.locator('#filters input[value="passed"]').uncheck();
      await expect
        .poll(() => page.locator(`details[data-id="${PASSING}"]`).isHidden(), { timeout: WAIT_MS })
        .toBe(true);
      expect(await details.isVisible()).toBe(true);

      expectNoNetwork(o);
      expect(o.problems).toEqual([]);
    } finally {
      await o.context.close();
    }
  });

  it('draws the run as a timeline: a bar per scenario placed by its times, the critical path marked and named', async ({
    tempDir,
  }) => {
    const timeline = run.timeline!;
    expect(timeline.criticalPath.length).toBeGreaterThan(0);
    const o = await open(tempDir, renderHtml(run), 'timeline.html');
    try {
      const { page } = o;
      const section = page.locator('section#timeline');
      expect(await section.isVisible()).toBe(true);
      const total = Number(await page.getByTestId('timeline').getAttribute('data-total'));
      expect(total).toBeGreaterThanOrEqual(timeline.scenarios.endMs);
      const bars = page.getByTestId('timeline-bar');
      const rows = await bars.evaluateAll((els) =>
        els.map((el) => {
          const track = el.querySelector('.tl-track')!.getBoundingClientRect();
          const bar = el.querySelector('.tl-bar')!.getBoundingClientRect();
          return {
            id: el.getAttribute('data-id') ?? '',
            critical: el.getAttribute('data-critical') === 'true',
            left: bar.left - track.left,
            width: bar.width,
            track: track.width,
          };
        }),
      );
      // One bar per scenario, in the order they started.
      const byStart = [...run.scenarios]
        .sort((a, b) => a.timing!.startMs - b.timing!.startMs || a.timing!.endMs - b.timing!.endMs)
        .map((s) => s.id);
      expect(rows.map((r) => r.id)).toEqual(byStart);
      for (const r of rows) {
        const t = run.scenarios.find((s) => s.id === r.id)!.timing!;
        expect(Math.abs(r.left - (t.startMs / total) * r.track), r.id).toBeLessThan(2);
        expect(Math.abs(r.width - Math.max(2, ((t.endMs - t.startMs) / total) * r.track)), r.id).toBeLessThan(2);
      }
      // The critical path is marked on its scenarios, and the longest of it named, each a link to its scenario.
      expect(rows.filter((r) => r.critical).map((r) => r.id)).toEqual(
        byStart.filter((id) => timeline.criticalPath.some((c) => c.id === id)),
      );
      expect(await page.getByTestId('timeline-critical').count()).toBe(timeline.criticalPath.length);
      const named = await page.getByTestId('timeline-bounds').locator('a').allTextContents();
      expect(named.length).toBe(Math.min(3, timeline.criticalPath.length));
      for (const id of named) expect(timeline.criticalPath.map((c) => c.id)).toContain(id);
      await page.getByTestId('timeline-bounds').locator('a').first().click();
      await expect
        .poll(() => page.locator(`details[data-id="${named[0]}"]`).evaluate((d) => d.hasAttribute('open')), {
          timeout: WAIT_MS,
        })
        .toBe(true);
      expect(await page.getByTestId('timeline-setup').isVisible()).toBe(true);
      expect(await page.getByTestId('timeline-summary').textContent()).toMatch(/wall: setup .*, scenarios .*/);
      // A merged report has no timeline of one run: no section.
      const { timeline: _dropped, ...merged } = run;
      expect(renderHtml(merged)).not.toContain('id="timeline"');
      expectNoNetwork(o);
      expect(o.problems).toEqual([]);
    } finally {
      await o.context.close();
    }
  });

  it('works without the script: every scenario and its details are in the page', async ({ tempDir }) => {
    const o = await open(tempDir, renderHtml(run), 'noscript.html', { javaScriptEnabled: false });
    try {
      expect(await o.page.locator('details[data-testid="scenario"]').count()).toBe(run.scenarios.length);
      expect(await o.page.locator('#filters').isHidden()).toBe(true);
      const failing = run.scenarios.find((s) => s.id === FAILING)!;
      expect(await o.page.locator(`details[data-id="${FAILING}"] [data-testid="replay"]`).textContent()).toBe(
        failing.replay,
      );
      expectNoNetwork(o);
    } finally {
      await o.context.close();
    }
  });

  it('shows injected markup from the target as text and never runs it', async ({ tempDir }) => {
    const crafted: RunResult = structuredClone(run);
    const victim = crafted.scenarios.find((s) => s.id === FAILING)!;
    victim.title = `Title ${SCRIPT_PAYLOAD}`;
    victim.reason = `reason ${SCRIPT_PAYLOAD} ${ATTR_PAYLOAD}`;
    victim.failure = {
      step: 1,
      stepName: ATTR_PAYLOAD,
      messages: [`message ${SCRIPT_PAYLOAD}`, `message ${ATTR_PAYLOAD}`],
    };
    victim.counterexample!.values = { title: SCRIPT_PAYLOAD, attr: ATTR_PAYLOAD };
    victim.replay = `conform run --filter '${ATTR_PAYLOAD}'`;
    const x = victim.transcript[0]!;
    x.request.url = `${x.request.url}?q=${encodeURIComponent(ATTR_PAYLOAD)}`;
    x.request.headers = { ...x.request.headers, 'x-evil': ATTR_PAYLOAD };
    x.request.body = `body ${SCRIPT_PAYLOAD}`;
    x.response = {
      status: 200,
      headers: { 'content-type': 'text/html', 'x-evil': [SCRIPT_PAYLOAD, ATTR_PAYLOAD] },
      body: `<html>${SCRIPT_PAYLOAD}${ATTR_PAYLOAD}</html>`,
      durationMs: 1,
    };
    crafted.target = `http://evil.example/${ATTR_PAYLOAD}`;
    crafted.rules[0]!.text = `rule ${SCRIPT_PAYLOAD}`;

    const html = renderHtml(crafted);
    expect(html).not.toContain(SCRIPT_PAYLOAD);
    expect(html).not.toContain(ATTR_PAYLOAD);

    const o = await open(tempDir, html, 'crafted.html');
    try {
      const { page } = o;
      const details = page.locator(`details[data-id="${FAILING}"]`);
      await details.locator(':scope > summary').click();
      await details.getByTestId('failure').waitFor({ state: 'visible', timeout: WAIT_MS });
      expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      expect(await details.locator(':scope > summary').textContent()).toContain(`Title ${SCRIPT_PAYLOAD}`);
      expect(await details.getByTestId('failure').textContent()).toContain(`message ${ATTR_PAYLOAD}`);
      expect(await details.getByTestId('reason').textContent()).toContain(`reason ${SCRIPT_PAYLOAD} ${ATTR_PAYLOAD}`);
      expect(await details.locator('pre.msg-body').allTextContents()).toEqual([
        `body ${SCRIPT_PAYLOAD}`,
        `<html>${SCRIPT_PAYLOAD}${ATTR_PAYLOAD}</html>`,
      ]);
      expect(JSON.parse((await details.getByTestId('cex-values').textContent()) ?? '')).toEqual({
        title: SCRIPT_PAYLOAD,
        attr: ATTR_PAYLOAD,
      });
      expect(await details.getByTestId('replay').textContent()).toBe(victim.replay);
      expect(await page.getByTestId('meta-target').textContent()).toBe(crafted.target);
      expect(await page.title()).toContain(crafted.target);
      expectNoNetwork(o);
      expect(o.problems).toEqual([]);
    } finally {
      await o.context.close();
    }
  });
});

describe('the client report (conform check-client) in a real browser', () => {
  it('renders every client rule, the failures with their requests, no network, no errors', async ({ tempDir }) => {
    const { main } = await import('../cli/src/main.js');
    const { readFile } = await import('node:fs/promises');
    const out = path.join(tempDir, 'client');
    const code = await main(
      [
        'check-client',
        '--report-dir',
        out,
        '--',
        process.execPath,
        path.join(ROOT, 'test', 'clients', 'node-client.mjs'),
        'wrong',
      ],
      { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: ROOT },
    );
    expect(code).toBe(1);
    const report = JSON.parse(await readFile(path.join(out, 'client-report.json'), 'utf8')) as {
      rules: Array<{ id: string; status: string }>;
    };
    const o = await open(tempDir, await readFile(path.join(out, 'client-report.html'), 'utf8'), 'client-report.html');
    try {
      const { page } = o;
      expect(await page.title()).toBe('conform check-client: failed');
      const rows = page.locator('table').first().locator('tbody tr');
      expect(await rows.count()).toBe(report.rules.length);
      for (const r of report.rules.filter((x) => x.status === 'failed')) {
        const row = page.locator('tr.failed', { hasText: r.id });
        expect(await row.count(), r.id).toBe(1);
        expect(await row.locator('li').count(), r.id).toBeGreaterThan(0);
      }
      expect(report.rules.some((r) => r.id === '5.2-nonce-change' && r.status === 'failed')).toBe(true);
      expectNoNetwork(o);
      expect(o.problems).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 60_000);
});
