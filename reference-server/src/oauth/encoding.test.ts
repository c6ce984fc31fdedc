import { describe, expect, it } from 'vitest';
import {
  formBody,
  formDecode,
  isFormContentType,
  parseFormBytes,
  parseFormText,
  percentDecode,
  percentEncode,
  wireBytes,
} from './encoding.js';

const pairs = (text: string) =>
  parseFormBytes(Buffer.from(text, 'latin1')).map((p) => [p.name.toString('utf8'), p.value.toString('utf8')]);

describe('OAuth encoding', () => {
  it('percent-encodes every byte but the unreserved characters, uppercase hex, over UTF-8 (RFC 5849 §3.6)', () => {
    expect(percentEncode('AZaz09-._~')).toBe('AZaz09-._~');
    expect(percentEncode(' !"#$%&\'()*+,/:;=?@[]')).toBe(
      '%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2F%3A%3B%3D%3F%40%5B%5D',
    );
    expect(percentEncode('é✓😀')).toBe('%C3%A9%E2%9C%93%F0%9F%98%80');
    expect(percentEncode(Buffer.from([0, 0xff]))).toBe('%00%FF');
  });

  it('percent-decodes either case, keeps a stray %, and + only in forms', () => {
    expect(percentDecode(Buffer.from('a%2fb%2F%zz%4+c'), false).toString('latin1')).toBe('a/b/%zz%4+c');
    expect(percentDecode(Buffer.from('a+b%2B'), true).toString()).toBe('a b+');
  });

  it('splits forms in order, duplicates kept, empty parts skipped, a bare name has an empty value', () => {
    expect(pairs('b=2&a=1&&a=3&c&=x&d=e=f')).toEqual([
      ['b', '2'],
      ['a', '1'],
      ['a', '3'],
      ['c', ''],
      ['', 'x'],
      ['d', 'e=f'],
    ]);
    expect(pairs('')).toEqual([]);
  });

  it('decodes forms as UTF-8 text, refusing other bytes', () => {
    expect(parseFormText(Buffer.from('q=caf%C3%A9&x=a+b'))).toEqual([
      ['q', 'café'],
      ['x', 'a b'],
    ]);
    expect(parseFormText(Buffer.from('q=%FF'))).toBeUndefined();
    expect(formDecode('p%40ss+w%C3%B6rd%2B1')).toBe('p@ss wörd+1');
    expect(formBody([['a b', 'c&d']])).toBe('a%20b=c%26d');
  });

  it('takes request text as raw octets, or as UTF-8 when it holds wider characters', () => {
    expect([...wireBytes('\u00e9')]).toEqual([0xe9]);
    expect([...wireBytes('✓')]).toEqual([0xe2, 0x9c, 0x93]);
  });

  it('recognises the form media type', () => {
    expect(isFormContentType('Application/X-WWW-Form-Urlencoded; charset=UTF-8')).toBe(true);
    expect(isFormContentType('application/json')).toBe(false);
    expect(isFormContentType(undefined)).toBe(false);
  });
});
