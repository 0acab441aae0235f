import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The packages a module and the modules it imports statically import at run time, followed from
 * `entry` through the sources: what the agent server evaluates as it starts. Imports of types
 * only and `import()` (loaded at first use) are left out.
 */
function packagesImportedStatically(entry: string): Set<string> {
  const packages = new Set<string>();
  const visited = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement);
      if (!isImport && !ts.isExportDeclaration(statement)) continue;
      if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      if (isImport ? typesOnly(statement) : statement.isTypeOnly) continue;
      const specifier = statement.moduleSpecifier.text;
      if (specifier.startsWith('.')) visit(resolved(path.resolve(path.dirname(file), specifier)));
      else if (!specifier.startsWith('node:'))
        packages.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(entry);
  return packages;
}

/** `import type …`, or `import { type A, type B }`: nothing of it is there at run time. */
function typesOnly(statement: ts.ImportDeclaration): boolean {
  const clause = statement.importClause;
  if (!clause) return false; // `import 'x'`, for its effects
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

const resolved = (base: string) => [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((file) => fs.existsSync(file)) ?? base;

describe("an agent server's start", () => {
  const loaded = packagesImportedStatically(path.join(import.meta.dirname, 'main.ts'));

  it('imports neither the OpenAI client nor the MCP SDK: a conversation loads them at its first LLM call and its first MCP server', () => {
    // Seen at all: what every start needs is followed to.
    expect(loaded).toContain('zod');
    expect(loaded).toContain('ws');
    expect(loaded).not.toContain('openai');
    expect(loaded).not.toContain('@modelcontextprotocol/sdk');
  });
});
