import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtServerScript } from './testing/built-server';

/** What a chunk requires as it loads (`const x = require("./x.js");`); not `import()`'s, left for later. */
const requiredStatically = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^(?:(?:const|let|var) \w+ = )?require\("([^"]+)"\);$/gm)].map(([, name]) => name!);

/** The chunks a chunk requires, static or not (`import("./start-….js")`). */
const requiredAtAll = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/\brequire\("(\.\/[^"]+)"\)/g)].map(([, name]) => name!);

/**
 * The built chunks `npm start` loads as it starts: what main.js loads (the code cache first, then
 * its modules with `import()`), and what they require as they load.
 */
function loadedAtStart(): Set<string> {
  const main = builtServerScript('main');
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const chunk of requiredStatically(file).filter((name) => name.startsWith('./'))) visit(path.resolve(path.dirname(file), chunk));
  };
  visit(main);
  for (const chunk of requiredAtAll(main)) visit(path.resolve(path.dirname(main), chunk));
  return loaded;
}

/** The packages left out of the bundle that a chunk requires as it loads (`require("better-sqlite3")`), Node's own aside. */
const externalImportsOf = (file: string) => requiredStatically(file).filter((name) => !name.startsWith('.') && !name.startsWith('node:'));

/** The packages whose code a chunk carries, as the bundler marks each module (`// node_modules/<package>/…`). */
const packagesIn = (file: string) =>
  new Set([...fs.readFileSync(file, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map(([, name]) => name!));

describe('a server start', () => {
  it('loads no client it needs only later: undici, OpenAI, MCP (they load at their first call)', () => {
    const loaded = [...loadedAtStart()].flatMap((file) => [...packagesIn(file)]);
    // Seen at all: the marks are there to read.
    expect(loaded).toContain('fastify');
    expect(loaded).not.toContain('undici');
    expect(loaded).not.toContain('openai');
    expect(loaded).not.toContain('@modelcontextprotocol/sdk');
  });

  it('imports no driver it needs only later: PostgreSQL (on SQLite, the default) and Docker (for a container sandbox)', () => {
    const imported = [...loadedAtStart()].flatMap(externalImportsOf);
    // Seen at all: SQLite's driver is imported at the start.
    expect(imported).toContain('better-sqlite3');
    expect(imported).not.toContain('pg');
    expect(imported).not.toContain('dockerode');
  });
});
