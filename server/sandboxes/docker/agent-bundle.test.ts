import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_SERVER_SCRIPT } from '../specs';

/**
 * Every module the bundle loads by name: static imports, `import("…")` and `require("…")`. Not
 * what only looks like one: a JSDoc type in a comment (`{import('./types').Options}`), or code a
 * library writes as text for later (ajv's `` _`require("ajv/…")` ``).
 */
function specifiers(source: string): string[] {
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line))
    .join('\n');
  const patterns = [
    /^import\s[^;]*?from\s*["']([^"']+)["']/gm,
    /^import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /(?<!`)\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!));
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier);

/** The build's own files: main.js and those it loads at first use, by paths relative to each other. */
const isOwnFile = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');

// The default sandbox image has node and these files, no node_modules (`npm run build:agent` first).
describe('the agent server bundle', () => {
  it('loads nothing but Node built-ins and its own files', () => {
    const built = path.dirname(AGENT_SERVER_SCRIPT);
    const files = fs.readdirSync(built, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    expect(files).toContain('main.js');
    // The clients a conversation loads at first use are files of their own.
    expect(files.length).toBeGreaterThan(1);
    // CommonJS, wherever the directory is copied: Node starts it with less work than an ES module.
    expect(JSON.parse(fs.readFileSync(path.join(built, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    for (const file of files) {
      const found = specifiers(fs.readFileSync(path.join(built, file), 'utf8'));
      expect(
        found.filter((specifier) => !isBuiltin(specifier) && !isOwnFile(specifier)),
        file,
      ).toEqual([]);
      for (const own of found.filter(isOwnFile))
        expect(fs.existsSync(path.resolve(built, path.dirname(file), own)), `${file}: ${own}`).toBe(true);
    }
  });

  it('finds the bare imports of a bundle that has them', () => {
    expect(specifiers('import x from "openai";\nconst y = require("ws");').filter((s) => !isBuiltin(s))).toEqual(['openai', 'ws']);
    expect(
      specifiers('const z = await import("ajv");\n/**\n * @param {import("../types").Options} o\n */\nconst c = _`require("ajv/x")`;'),
    ).toEqual(['ajv']);
  });
});
