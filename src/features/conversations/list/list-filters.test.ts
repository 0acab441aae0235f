import { describe, expect, it } from 'vitest';
import { apiFiltersFrom, listFiltersFrom } from './list-filters';

describe('list filters', () => {
  it('reads the defaults from an empty query string', () => {
    const filters = listFiltersFrom(new URLSearchParams());
    expect(filters).toEqual({ title: '', from: '', to: '', sort: 'CREATED_AT_DESC', archived: false, owner: '', sandbox: '' });
    expect(apiFiltersFrom(filters, true)).toEqual({
      title: undefined,
      createdFrom: undefined,
      createdBefore: undefined,
      sort: 'CREATED_AT_DESC',
      archived: false,
      owner: undefined,
      sandboxId: undefined,
    });
  });

  it('asks for the conversations of one sandbox when the URL names it', () => {
    expect(apiFiltersFrom(listFiltersFrom(new URLSearchParams('sandbox=sb1')), true).sandboxId).toBe('sb1');
  });

  it('asks for one user’s conversations when an owner is chosen', () => {
    expect(apiFiltersFrom(listFiltersFrom(new URLSearchParams('owner=u1')), true).owner).toBe('u1');
  });

  it('takes a known sort, ignores an unknown one, and ends a date range a day after its last day', () => {
    expect(listFiltersFrom(new URLSearchParams('sort=CREATED_AT')).sort).toBe('CREATED_AT');
    expect(listFiltersFrom(new URLSearchParams('sort=SIDEWAYS')).sort).toBe('CREATED_AT_DESC');
    const api = apiFiltersFrom(listFiltersFrom(new URLSearchParams('q=fix&from=2025-03-01&to=2025-03-01')), true);
    expect(api.title).toBe('fix');
    expect(Date.parse(api.createdBefore!) - Date.parse(api.createdFrom!)).toBe(24 * 60 * 60 * 1000);
  });

  it('asks for archived conversations only from a server that archives', () => {
    const filters = listFiltersFrom(new URLSearchParams('archived=true'));
    expect(apiFiltersFrom(filters, true).archived).toBe(true);
    expect(apiFiltersFrom(filters, false).archived).toBe(false);
  });
});
