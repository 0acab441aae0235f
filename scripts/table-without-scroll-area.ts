import type { Plugin } from 'vite';

const STUB = '\0agent-console:table-scroll-area';

/**
 * Mantine's Table imports `Table.ScrollContainer`, which imports Mantine's custom ScrollArea and,
 * with it, a positioning library: about 20 KiB of gzip on every page with a table. The console's
 * tables scroll natively (`type="native"`, and `pos="relative"` so their visually hidden column
 * names scroll with them instead of widening the page), so its import of ScrollArea is answered
 * with a plain element.
 */
export function tableWithoutScrollArea(): Plugin {
  return {
    name: 'agent-console:table-without-scroll-area',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.includes('TableScrollContainer') && source.endsWith('ScrollArea/ScrollArea.mjs')) return STUB;
      return null;
    },
    load(id) {
      return id === STUB ? "export const ScrollArea = 'div';" : null;
    },
  };
}
