/** Where the files bundled with the `conform` package are, from sources (vitest), `dist/` or `node_modules`. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConformError } from './errors.js';

/** Where the installed package's own specs, catalogue, vectors and reference profile are. */
export interface BundledPaths {
  /** The package's own folder. */
  root: string;
  /** The scenario folder, `specs/`. */
  specs: string;
  /** The requirement catalogue, `specs/rules.yaml`. */
  rules: string;
  /** Known-answer vectors for the signer self-test, `specs/vectors/auth.yaml`. */
  vectors: string;
  /** The reference server's profile, `reference-server/profile.yaml`. */
  profile: string;
  /** The package version. */
  version: string;
}

/** The npm name of the package (the command it installs is `conform`). */
export const PACKAGE_NAME = '@conform-harness/conform';

let bundled: BundledPaths | undefined;

/** The nearest enclosing folder whose `package.json` is conform's ({@link PACKAGE_NAME}), and the files in it. */
export function bundledPaths(): BundledPaths {
  if (bundled) return bundled;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      const meta = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (meta.name === PACKAGE_NAME) {
        bundled = {
          root: dir,
          specs: path.join(dir, 'specs'),
          rules: path.join(dir, 'specs', 'rules.yaml'),
          vectors: path.join(dir, 'specs', 'vectors', 'auth.yaml'),
          profile: path.join(dir, 'reference-server', 'profile.yaml'),
          version: meta.version ?? '0.0.0',
        };
        return bundled;
      }
    }
    dir = path.dirname(dir);
  }
  throw new ConformError(
    'CONFORM_INTERNAL',
    `cannot find the conform package folder (its package.json) above ${fileURLToPath(import.meta.url)}`,
  );
}
