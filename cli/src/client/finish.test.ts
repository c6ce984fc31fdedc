import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../harness/src/runner/redact.js';
import type { RecordedExchange } from '../../../reference-server/src/index.js';
import { learnTokens } from './finish.js';

const exchange = (target: string, headers: RecordedExchange['headers']): RecordedExchange => ({
  seq: 1,
  method: 'GET',
  target,
  headers,
  body: new Uint8Array(),
  transport: 'https',
  at: 0,
  status: 200,
});

describe('learnTokens', () => {
  it('teaches the redactor the bearer and OAuth 1 tokens a client sent, wherever they show up later', () => {
    const redactor = createRedactor([]);
    learnTokens(
      [
        exchange('/', { authorization: 'Bearer tok-123456' }),
        exchange('/', { authorization: 'OAuth oauth_consumer_key="c", oauth_token="o%2Btok-9"' }),
        exchange('/x?access_token=qtok-77&a=1', {}),
      ],
      redactor,
    );
    expect(redactor.text('a tok-123456 b o+tok-9 c qtok-77 d')).toBe('a [redacted] b [redacted] c [redacted] d');
  });
});
