/** The JSON Schemas committed for editors are exactly what the validating zod schemas generate. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSchemas } from '../cli/src/commands/schemas.js';
import { ROOT } from './helpers.js';

describe('generated JSON Schemas', () => {
  for (const [name, text] of Object.entries(generatedSchemas())) {
    it(`specs/schema/${name} is up to date (run: conform schemas --write)`, async () => {
      expect(await readFile(path.join(ROOT, 'specs', 'schema', name), 'utf8')).toBe(text);
    });
  }
});
