import type { Plugin } from 'vite';

const STUB = '\0agent-console:table-scroll-area';
/** Who imports ScrollArea, and what: the import in Mantine's Table this plugin replaces. */
const IMPORTER = /[\\/]@mantine[\\/]core[\\/].*[\\/]TableScrollContainer\.mjs$/;
const IMPORTED = '../ScrollArea/ScrollArea.mjs';

/**
 * Mantine's Table imports `Table.ScrollContainer`, which imports Mantine's custom ScrollArea and,
 * with it, a positioning library, into every page with a table. The console's
 * tables scroll natively (`type="native"`, and `pos="relative"` so their visually hidden column
 * names scroll with them instead of widening the page), where the container renders a plain
 * element and never the ScrollArea; so its import of ScrollArea is resolved to a stand-in that
 * throws if it is ever rendered (a container left to its default type).
 *
 * A build fails when Mantine's Table no longer imports ScrollArea this way (an upgrade moved
 * it), rather than silently shipping the larger bundle. See docs/performance.md.
 */
export function tableWithoutScrollArea(): Plugin {
  let build = false;
  let replaced = 0;
  return {
    name: 'agent-console:table-without-scroll-area',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    buildStart() {
      replaced = 0;
    },
    resolveId(source, importer) {
      if (!importer || !IMPORTER.test(importer) || source !== IMPORTED) return null;
      replaced++;
      return STUB;
    },
    load(id) {
      if (id !== STUB) return null;
      return `export function ScrollArea() {
        throw new Error('Table.ScrollContainer needs type="native": the build leaves Mantine\\'s ScrollArea out (scripts/table-without-scroll-area.ts)');
      }`;
    },
    buildEnd(error) {
      if (build && !error && replaced === 0)
        this.error(`Mantine's TableScrollContainer no longer imports ${IMPORTED}: scripts/table-without-scroll-area.ts matches nothing`);
    },
  };
}
