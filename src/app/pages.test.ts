import { describe, expect, it } from 'vitest';
import { firstVisitModules, NAVIGATION_PAGES, PAGE_NAMES, pageUrl, PAGES } from './pages';

const SOURCES = new Set(Object.keys(import.meta.glob('/src/**/*.{ts,tsx}')).map((file) => file.slice(1)));

describe('the page registry', () => {
  it('names source files that exist, for every page and layout', () => {
    for (const name of PAGE_NAMES) for (const module of firstVisitModules(name)) expect(SOURCES).toContain(module);
  });

  it('gives a first visit the layout before the page', () => {
    expect(firstVisitModules('mcp')).toEqual(['src/app/settings-layout.tsx', 'src/features/mcp-servers/mcp-servers-page.tsx']);
    expect(firstVisitModules('sandboxes')).toEqual(['src/features/sandboxes/sandboxes-page.tsx']);
  });

  it('has one page per path', () => {
    expect(new Set(PAGE_NAMES.map((name) => PAGES[name].path)).size).toBe(PAGE_NAMES.length);
  });

  it('fills in a URL, encoding what it is given', () => {
    expect(pageUrl('sandboxes')).toBe('/sandboxes');
    expect(pageUrl('conversation', { conversationId: 'a b' })).toBe('/conversations/a%20b');
  });

  it('links the main pages from the navigation, in order', () => {
    expect(NAVIGATION_PAGES).toEqual(['settings', 'git', 'conversations', 'sandboxes', 'specs', 'users', 'audit', 'usage']);
  });
});
