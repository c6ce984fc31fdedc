/**
 * The out-of-band listener: a tiny HTTP server of the harness that a target should never contact. Scenarios about
 * external entities put its URL (and a file: URL of a file it wrote) into a document; a target that resolves them
 * makes a request here, or serves the marker back — as security scanners detect server-side requests.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Request lines remembered, for the failure message; further contacts are only counted. */
const MAX_SEEN = 8;
const MAX_LINE = 200;

export interface OobOptions {
  host: string;
  port: number;
  /** The base URL the target reaches the listener by; default http://host:boundPort. */
  url?: string;
  /** Unique per iteration: in the marker, the paths and the file name. */
  token: string;
}

/** What templates see as `oob`. */
export interface OobScope {
  /** Base URL of the listener, with the token as its first path segment (append anything). */
  url: string;
  /** A file: URL of a file holding the marker (meaningful when the target shares the harness's file system). */
  file: string;
  /** Text the listener answers with and the file holds: expanded content shows it. */
  marker: string;
}

/**
 * One folder for the marker files of the listeners open at a time: made when the first opens, removed when the last
 * closes (and when the process exits), so a finished run leaves nothing behind and a run cut short (an aborted or
 * killed process) at most this one folder, not one per iteration.
 */
let markerDir: string | undefined;
let markerUsers = 0;
/** One exit listener for the process, whatever folder is current then (one per folder would pile up). */
let exitHook = false;

function markerFolder(): string {
  if (markerDir === undefined || !existsSync(markerDir)) {
    markerDir = mkdtempSync(path.join(tmpdir(), 'conform-oob-'));
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => {
        if (markerDir !== undefined) rmSync(markerDir, { recursive: true, force: true });
      });
    }
  }
  markerUsers++;
  return markerDir;
}

function releaseMarkerFolder(): void {
  if (--markerUsers > 0 || markerDir === undefined) return;
  rmSync(markerDir, { recursive: true, force: true });
  markerDir = undefined;
}

export class OobListener {
  private contacts = 0;
  private readonly seen: string[] = [];
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    private readonly file: string,
    readonly scope: OobScope,
  ) {}

  /** Starts listening and writes the marker file. */
  static async start(options: OobOptions): Promise<OobListener> {
    const marker = `conformoob${options.token}`;
    const file = path.join(markerFolder(), `entity-${options.token.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`);
    writeFileSync(file, marker);
    let self: OobListener | undefined;
    const server = createServer((req, res) => {
      self?.record(`${req.method ?? '?'} ${req.url ?? ''}`);
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      res.end(marker);
    });
    server.maxConnections = 16;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => resolve());
      });
    } catch (err) {
      rmSync(file, { force: true });
      releaseMarkerFolder();
      throw err;
    }
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const base = options.url ?? `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    self = new OobListener(server, file, { url: `${base}/${options.token}`, file: pathToFileURL(file).href, marker });
    return self;
  }

  private record(line: string): void {
    this.contacts++;
    if (this.seen.length < MAX_SEEN) this.seen.push(line.slice(0, MAX_LINE));
    for (const w of this.waiters.splice(0)) w();
  }

  /**
   * Waits up to `seconds` for a contact (returning early when one came); the messages describing the contacts so
   * far, empty when there were none.
   */
  async contactedWithin(seconds: number): Promise<string[]> {
    if (this.contacts === 0 && seconds > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, seconds * 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.contacts === 0) return [];
    const more = this.contacts > this.seen.length ? ` and ${this.contacts - this.seen.length} more` : '';
    return [
      `the target contacted the harness's out-of-band listener ${this.contacts} time(s): ${this.seen.join('; ')}${more} (an external entity or DTD was resolved)`,
    ];
  }

  /** Stops listening, drops open connections and removes the marker file. */
  async close(): Promise<void> {
    for (const w of this.waiters.splice(0)) w();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.file, { force: true });
    releaseMarkerFolder();
  }
}

/** Why a target cannot reach the listener (not on loopback, no `oob.url`), or null when it can. */
export function oobUnreachable(primaryBase: string, url: string | undefined): string | null {
  if (url !== undefined) return null;
  let host: string;
  try {
    host = new URL(primaryBase).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  return loopback
    ? null
    : `the target (${host}) is not on loopback and cannot reach the harness's out-of-band listener: set the profile's oob.url (and oob.listen)`;
}
