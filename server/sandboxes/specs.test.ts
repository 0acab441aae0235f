import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { AGENT_SERVER_SPEC_ID, loadSandboxSpecs } from './specs';
import { sandboxStatus } from './status';

function specsFile(content: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'specs-')), 'specs.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('loadSandboxSpecs', () => {
  it('has the agent server first, then the declared specs', () => {
    const specs = loadSandboxSpecs(
      specsFile([{ id: 'python', command: ['python3', '-m', 'http.server'], initial_env: { A: '1' }, working_dir: 'work' }]),
    );
    expect(specs.map((s) => s.id)).toEqual([AGENT_SERVER_SPEC_ID, 'python']);
    expect(specs[1]).toMatchObject({ command: ['python3', '-m', 'http.server'], initial_env: { A: '1' }, working_dir: 'work' });
  });

  it.each([
    ['not JSON', '{', /cannot be read as JSON/],
    ['a spec without a command', [{ id: 'x' }], /0\.command: Field required/],
    ['an empty command', [{ id: 'x', command: [] }], /0\.command/],
    ['an unknown field', [{ id: 'x', command: ['y'], image: 'z' }], /0\.image: Extra inputs are not permitted/],
    ['a repeated id', [{ id: 'agent-server', command: ['y'] }], /"agent-server" is used twice/],
    ['a working_dir outside the sandbox', [{ id: 'x', command: ['y'], working_dir: '../../etc' }], /inside the sandbox directory/],
    ['an absolute working_dir', [{ id: 'x', command: ['y'], working_dir: '/etc' }], /inside the sandbox directory/],
  ])('refuses %s with a clear message', (_name, content, message) => {
    expect(() => loadSandboxSpecs(specsFile(content))).toThrow(ConfigError);
    expect(() => loadSandboxSpecs(specsFile(content))).toThrow(message);
  });
});

describe('sandboxStatus', () => {
  const base = { state: 'running', healthy: undefined, exitDetail: null, sinceStart: 0, startTimeoutMs: 30_000 } as const;
  it.each([
    ['paused', { ...base, state: 'paused' }, 'PAUSED'],
    ['answering', { ...base, healthy: true }, 'RUNNING'],
    ['not answering yet', { ...base, healthy: false, sinceStart: 5000 }, 'STARTING'],
    ['not answering after the timeout', { ...base, healthy: false, sinceStart: 31_000 }, 'ERROR'],
    ['not checked yet, long after its start (just after a server restart)', { ...base, sinceStart: 600_000 }, 'STARTING'],
    ['started but not recorded yet', { ...base, state: 'pending' }, 'STARTING'],
    ['gone after failing', { ...base, state: 'missing', exitDetail: 'The process exited with code 1' }, 'ERROR'],
    ['gone', { ...base, state: 'missing' }, 'MISSING'],
  ] as const)('%s → %s', (_name, observation, status) => {
    expect(sandboxStatus(observation).status).toBe(status);
  });
});
