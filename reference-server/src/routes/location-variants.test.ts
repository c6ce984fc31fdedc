/** The variants `location-absolute` and `location-other-origin` change the Location of new articles, not their path. */
import { describe, expect, it } from 'vitest';
import { articleXml, testServer } from '../../testkit/index.js';

function locations(variants: Array<'location-absolute' | 'location-other-origin'>): { post: unknown; put: unknown } {
  const t = testServer({ variants });
  const host = { host: 'ref.test:8080' };
  const post = t.call('POST', '/articles', articleXml(), host);
  const put = t.call('PUT', '/articles/chosen', articleXml(), host);
  expect([post.status, put.status]).toEqual([201, 201]);
  return { post: post.headers['location'], put: put.headers['location'] };
}

describe('Location variants', () => {
  it('default: the path alone', () => {
    expect(locations([])).toEqual({ post: '/articles/id-1', put: '/articles/chosen' });
  });

  it("location-absolute: an absolute URL on the request's origin", () => {
    expect(locations(['location-absolute'])).toEqual({
      post: 'http://ref.test:8080/articles/id-1',
      put: 'http://ref.test:8080/articles/chosen',
    });
  });

  it('location-other-origin: the same path on the public origin', () => {
    expect(locations(['location-other-origin'])).toEqual({
      post: 'https://public.example/articles/id-1',
      put: 'https://public.example/articles/chosen',
    });
  });
});
