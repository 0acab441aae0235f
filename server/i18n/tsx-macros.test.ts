import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** What a script prints when run by tsx, with or without the Lingui macros' hook (as the bench runs). */
function runByTsx(code: string, withHook: boolean): string {
  const hook = withHook ? ['--import', './scripts/lingui-macros.mjs'] : [];
  return execFileSync(process.execPath, ['--import', 'tsx', ...hook, '--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

// The bench and its server process run the server's and the contract's TypeScript through tsx,
// which runs no Babel: without the hook the first module with a `msg` fails to link.
const script = `
  const { NUL_PROBLEM } = await import('./src/contract/rules.ts');
  const { apiKeyHash } = await import('./server/services/team/api-keys-service.ts');
  console.log(typeof apiKeyHash, NUL_PROBLEM.message);
`;

describe('scripts run by tsx', () => {
  it('load modules that use Lingui macros through the hook, with their English text', () => {
    expect(runByTsx(script, true).trim()).toBe('function Must not contain a NUL character (\\0): no process can be given one');
  });

  it('cannot load them without it, which is why the bench passes it', () => {
    expect(() => runByTsx(script, false)).toThrow(/does not provide an export named 'msg'/);
  });
});
