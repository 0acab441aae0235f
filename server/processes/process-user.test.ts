import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUserProblems } from '../run-server';
import { closedToOthers, unreadableByOthers } from './process-user';

/*
 * Sandboxes of a root server run as other users: what they must run (Node, the agent server) has
 * to be readable by a stranger. Installed under a home of mode 0700, every start failed with
 * "kill ESRCH"; the check says which directory is closed and the command that opens it. Read from
 * the modes alone, so it says the same whoever runs it.
 */

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'process-user-'));
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, 'home', 'build'), { recursive: true });
  fs.chmodSync(path.join(root, 'home'), 0o700);
  fs.writeFileSync(path.join(root, 'home', 'build', 'main.js'), '');
  fs.mkdirSync(path.join(root, 'open'));
  fs.chmodSync(path.join(root, 'open'), 0o755);
  fs.writeFileSync(path.join(root, 'open', 'private.js'), '', { mode: 0o600 });
  fs.writeFileSync(path.join(root, 'open', 'main.js'), '', { mode: 0o644 });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('what a sandbox user cannot run', () => {
  it('names the first directory closed to others, its mode, and the command that opens it', () => {
    const script = path.join(root, 'home', 'build', 'main.js');
    expect(closedToOthers(path.dirname(script))).toBe(path.join(root, 'home'));
    expect(unreadableByOthers(script, 'the agent server')).toBe(
      `Sandboxes run as other users, who cannot enter ${root}/home (mode 0700), where the agent server is (${script}): install it under a directory others can enter (such as /opt), or let them through with: chmod o+x ${root}/home`,
    );
    expect(sandboxUserProblems(script)).toContainEqual(expect.stringContaining(`the agent server is (${script})`));
  });

  it('names a file others cannot read', () => {
    const file = path.join(root, 'open', 'private.js');
    expect(unreadableByOthers(file, 'its command')).toBe(
      `Sandboxes run as other users, who cannot read its command (${file}, mode 0600): let them with: chmod o+r ${file}`,
    );
  });

  it('says nothing of what others can read', () => {
    expect(unreadableByOthers(path.join(root, 'open', 'main.js'), 'its command')).toBeUndefined();
    expect(closedToOthers(path.join(root, 'open'))).toBeUndefined();
  });
});
