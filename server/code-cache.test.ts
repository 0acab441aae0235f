import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtServerScript } from './testing/built-server';
import { startServerProcess } from './testing/server-process';

/* `npm start` compiles its chunks with the code V8 made for them at an earlier start (code-cache.ts). */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/**
 * A copy of the built server of its own, with no cache yet: at the same depth (it finds the agent
 * server two levels up), beside the project's node_modules (its drivers).
 */
function copyOfTheBuild(): string {
  const root = tempDir('agent-console-code-cache-');
  const built = path.dirname(builtServerScript('main'));
  fs.symlinkSync(path.resolve(built, '../../node_modules'), path.join(root, 'node_modules'));
  const build = path.join(root, 'build', 'server');
  fs.cpSync(built, build, { recursive: true, filter: (source) => path.basename(source) !== 'code-cache' });
  return build;
}

async function startAndStop(build: string): Promise<void> {
  const server = await startServerProcess({ dataDir: tempDir('agent-console-code-cache-data-'), script: path.join(build, 'main.js') });
  try {
    expect((await server.call('GET', '/api/v1/sandboxes/search')).status).toBe(200);
  } finally {
    await server.stop();
  }
}

/** The built chunk whose name starts with `name` (`run-server-<hash>.js`). */
const chunk = (build: string, name: string) => fs.readdirSync(build).find((file) => file.startsWith(`${name}-`) && file.endsWith('.js'))!;

/** Each cache file by name, with what identifies the file written (a rewrite renames a new one in). */
const cacheFiles = (build: string) =>
  Object.fromEntries(
    fs.readdirSync(path.join(build, 'code-cache')).map((name) => [name, fs.statSync(path.join(build, 'code-cache', name)).ino]),
  );

describe('the code cache of the built server', () => {
  it('is written by a first start for the chunks it ran, and read by the next, which writes nothing', async () => {
    const build = copyOfTheBuild();
    await startAndStop(build);
    const written = cacheFiles(build);
    expect(Object.keys(written)).toEqual(expect.arrayContaining([`${chunk(build, 'run-server')}.bin`, `${chunk(build, 'start')}.bin`]));
    // Chunks a start does not load (OpenAI's client, the upstream proxy) have none.
    expect(Object.keys(written).some((name) => name.startsWith('openai-'))).toBe(false);

    await startAndStop(build);
    // V8 took each: none was written again.
    expect(cacheFiles(build)).toEqual(written);
  });

  it('made again when V8 refuses it (damaged, or of another Node), and the server starts all the same', async () => {
    const build = copyOfTheBuild();
    await startAndStop(build);
    const file = path.join(build, 'code-cache', `${chunk(build, 'run-server')}.bin`);
    const made = fs.readFileSync(file);
    fs.writeFileSync(file, Buffer.alloc(made.length, 7));

    await startAndStop(build);
    expect(fs.readFileSync(file).some((byte) => byte !== 7)).toBe(true);
  });
});
