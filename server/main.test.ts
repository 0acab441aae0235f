import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markedProcesses } from './processes/proc';
import { SANDBOX_MARKER } from './sandboxes/process-runtime';
import { keyLocation, signInMessage, stopMessage } from './start-messages';
import { type ServerProcess, startServerProcess } from './testing/server-process';

/* What `npm start` prints for the person who ran it: the sign-in link last, and at Ctrl+C what keeps running. */

const dirs: string[] = [];
const servers: ServerProcess[] = [];
const sandboxes: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  // They outlive the server on purpose: the test ends them itself.
  for (const id of sandboxes.splice(0)) {
    for (const { pid } of markedProcesses(SANDBOX_MARKER, id)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone with another (a namespace's processes end with its first)
      }
    }
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function server(): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-start-'));
  dirs.push(dataDir);
  const specsFile = path.join(dataDir, 'specs.json');
  fs.writeFileSync(specsFile, JSON.stringify([{ id: 'idle', command: ['sh', '-c', 'exec sleep 937'], initial_env: {}, working_dir: '' }]));
  const started = await startServerProcess({ dataDir, env: { SANDBOX_SPECS_FILE: specsFile } });
  servers.push(started);
  return started;
}

describe('npm start', () => {
  it('prints the sign-in link last, alone on its line after a blank one, without colour when its output is not a terminal', async () => {
    const started = await server();
    const lines = started.output().trimEnd().split('\n');
    expect(lines.slice(-3)).toEqual(['Open this link to sign in:', '', `    ${started.url}/#key=${started.key}`]);
    expect(started.output()).not.toContain('\x1b[');
  });

  it('says at SIGTERM how many sandboxes keep running, and how to remove them', async () => {
    const started = await server();
    for (let i = 0; i < 2; i++) {
      const response = await started.call('POST', '/api/v1/sandboxes?sandbox_spec_id=idle');
      expect(response.status, response.body).toBe(200);
      sandboxes.push((JSON.parse(response.body) as { id: string }).id);
    }
    await started.stop();
    expect(started.output()).toContain(
      '2 sandboxes keep running after the server stops. To remove them, `npm start` again and delete them on the Sandboxes page.',
    );
    for (const id of sandboxes) expect(markedProcesses(SANDBOX_MARKER, id)).not.toEqual([]);
  });

  it('says nothing of sandboxes at SIGTERM when none runs', async () => {
    const started = await server();
    await started.stop();
    expect(started.output()).not.toContain('keep running');
    expect(started.output()).toContain('shutting down');
  });
});

describe('what it prints', () => {
  const link = 'http://127.0.0.1:3000/#key=k';
  const shown = { heading: 'Agent Console is running.', signInLink: link, cookieSignInPage: 'http://localhost:3000/sign-in' };

  it('sets the link in bold on a terminal only', () => {
    expect(signInMessage(shown, true)).toContain(`    \x1b[1m${link}\x1b[22m\n`);
    expect(signInMessage(shown, false)).toContain(`    ${link}\n`);
  });

  it('prints the key only to a terminal, or when PRINT_SIGN_IN_LINK asks; elsewhere (a log file) it says where the key is', () => {
    const config = { printSignInLink: false, sessionApiKey: undefined, dataDir: '/data' };
    expect(keyLocation(config, true)).toBeUndefined();
    expect(keyLocation({ ...config, printSignInLink: true }, false)).toBeUndefined();
    expect(keyLocation(config, false)).toBe('/data/session-api-key');
    expect(keyLocation({ ...config, sessionApiKey: 'k' }, false)).toBe('the SESSION_API_KEY the server was started with');
    const toLog = signInMessage({ ...shown, keyIsIn: '/data/session-api-key' }, false);
    expect(toLog).toContain('Open http://127.0.0.1:3000/ and sign in with the session key, which is in /data/session-api-key.');
    expect(toLog).not.toContain('#key=');
  });

  it('names one sandbox in the singular, and how to remove containers on the docker runtime', () => {
    expect(stopMessage({ running: 1, runtime: 'process', dataDir: '/data' })).toMatch(/^1 sandbox keeps running after the server stops\./);
    expect(stopMessage({ running: 3, runtime: 'docker', dataDir: '/data' })).toContain(
      'or remove their containers: docker rm -f $(docker ps -aq --filter label=agent-console.data-dir=/data).',
    );
  });
});
