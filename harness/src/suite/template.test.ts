import { describe, expect, it } from 'vitest';
import { ConformError } from '../errors.js';
import { compileTemplate, fillPathTemplate, referencedNames, renderTemplate } from './template.js';

const render = (src: string, scope: Record<string, unknown>) => renderTemplate(compileTemplate(src), scope);

describe('template language', () => {
  it('returns the raw value for a whole-string expression and text otherwise', () => {
    const a = { title: 't' };
    expect(render('{{ a }}', { a })).toBe(a);
    expect(render('x-{{ a.title }}-{{ n }}', { a, n: 3 })).toBe('x-t-3');
    expect(render('no braces', {})).toBe('no braces');
  });

  it('applies filters with literal and reference arguments', () => {
    const profile = { articles: { item: '/articles/{id}' } };
    expect(render('{{ id | item }}', { id: 'a b', profile })).toBe('/articles/a%20b');
    expect(render("{{ list | without: 'PUT' }}", { list: ['GET', 'put', 'DELETE'] })).toEqual(['GET', 'DELETE']);
    expect(render('{{ list | without: other }}', { list: ['GET', 'PUT'], other: ['get'] })).toEqual(['PUT']);
    expect(render("{{ list | only: 'DELETE' }}", { list: ['GET', 'DELETE'] })).toEqual(['DELETE']);
    expect(render('{{ t | at: 0 | fill: id }}', { t: ['/article/{id}'], id: 'x' })).toBe('/article/x');
    expect(render('{{ n | range }}', { n: 3 })).toEqual([0, 1, 2]);
    expect(render('{{ s | between: 200, 299 }}', { s: 204 })).toBe(true);
    expect(render('{{ s | between: 200, 299 }}', { s: 404 })).toBe(false);
    expect(render("{{ missing | default: 'd' }}", {})).toBe('d');
  });

  it('reports undefined names, unknown filters and syntax errors as CONFORM_TEMPLATE', () => {
    expect(() => render('{{ nope }}', {})).toThrow(/"nope" is not defined/);
    expect(() => compileTemplate('{{ a | frobnicate }}')).toThrow(/unknown filter "frobnicate"/);
    expect(() => compileTemplate('{{ a ')).toThrow(ConformError);
    expect(() => compileTemplate('{{ a b }}')).toThrow(/expected "\|"/);
  });

  it('lists referenced names, filter arguments included', () => {
    expect(referencedNames(compileTemplate('{{ a.b | without: c }}/{{ d }}'))).toEqual(['a', 'c', 'd']);
  });

  it('percent-encodes values filled into path templates', () => {
    expect(fillPathTemplate('/users/{user}/financialrecords', 'a/b?')).toBe('/users/a%2Fb%3F/financialrecords');
  });
});
