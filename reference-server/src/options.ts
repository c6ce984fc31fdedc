import { randomBytes } from 'node:crypto';
import type { FaultName } from './faults.js';

/** Options of {@link startServer}; every field is optional. */
export interface ServerOptions {
  /** Interface to bind. Default: `127.0.0.1`. */
  host?: string;
  /** Port to bind. Default: 0, a free port chosen by the system. */
  port?: number;
  /** Defects to switch on. Default: none (a correct server). */
  faults?: FaultName[];
  /** Largest accepted request body in bytes; larger bodies get 413. Default: 65536. */
  maxBodyBytes?: number;
  /** Most articles stored; creating beyond it gets 507. Default: 10000. */
  maxArticles?: number;
  /** Clock. Default: the system clock. */
  now?: () => Date;
  /** Id source for POST. Default: 16 random hex characters from `node:crypto`. */
  newId?: () => string;
  /** Receives one line per request. Default: discard. */
  log?: (line: string) => void;
}

/** {@link ServerOptions} with every default filled in. */
export interface ResolvedServerOptions {
  host: string;
  port: number;
  faults: ReadonlySet<FaultName>;
  maxBodyBytes: number;
  maxArticles: number;
  now: () => Date;
  newId: () => string;
  log: (line: string) => void;
}

/** Default id source: 16 random hex characters. */
export function randomId(): string {
  return randomBytes(8).toString('hex');
}

/** Fills in every default of {@link ServerOptions}, once. */
export function resolveServerOptions(options: ServerOptions = {}): ResolvedServerOptions {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    faults: new Set(options.faults ?? []),
    maxBodyBytes: options.maxBodyBytes ?? 65536,
    maxArticles: options.maxArticles ?? 10000,
    now: options.now ?? (() => new Date()),
    newId: options.newId ?? randomId,
    log: options.log ?? (() => {}),
  };
}
