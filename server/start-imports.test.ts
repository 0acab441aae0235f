import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtServerScript } from './testing/built-server';

/** The built chunks `entry` imports statically, itself included: what a start of it loads and runs. */
function staticallyLoaded(entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    // Static imports only (`import … from "./x.js"`, `export … from`); `import("./x.js")` is left for later.
    for (const [, chunk] of fs.readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom "(\.\/[^"]+)";/gm))
      visit(path.resolve(path.dirname(file), chunk!));
  };
  visit(entry);
  return loaded;
}

/** The packages left out of the bundle that a chunk imports statically (`import … from "pg"`), Node's own aside. */
const externalImportsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom "([^".][^"]*)";/gm)]
    .map(([, name]) => name!)
    .filter((name) => !name.startsWith('node:'));

/** The packages whose code a chunk carries, as the bundler marks each module (`// node_modules/<package>/…`). */
const packagesIn = (file: string) =>
  new Set([...fs.readFileSync(file, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map(([, name]) => name!));

describe('a server start', () => {
  it('loads no client it needs only later: undici, OpenAI, MCP (they load at their first call)', () => {
    const loaded = [...staticallyLoaded(builtServerScript('main'))].flatMap((file) => [...packagesIn(file)]);
    // Seen at all: the marks are there to read.
    expect(loaded).toContain('fastify');
    expect(loaded).not.toContain('undici');
    expect(loaded).not.toContain('openai');
    expect(loaded).not.toContain('@modelcontextprotocol/sdk');
  });

  it('imports no driver it needs only later: PostgreSQL (on SQLite, the default) and Docker (for a container sandbox)', () => {
    const imported = [...staticallyLoaded(builtServerScript('main'))].flatMap(externalImportsOf);
    // Seen at all: SQLite's driver is imported at the start.
    expect(imported).toContain('better-sqlite3');
    expect(imported).not.toContain('pg');
    expect(imported).not.toContain('dockerode');
  });
});
