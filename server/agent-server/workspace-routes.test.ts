import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SERVER_SCRIPT } from '../sandboxes/specs';
import { type AgentServerProcess, startAgentServer } from '../testing/agent-server-process';

/*
 * The agent server's git and file routes, as OpenHands' web client and our console call them, and
 * its CORS: a real git repository with a remote, files on disk, the built agent server.
 */

let server: AgentServerProcess;
let root: string;
let workspace: string;
/** A second conversation's workspace, which is no repository. */
let plain: string;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe' }).toString();

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-workspace-'));
  const origin = path.join(root, 'origin.git');
  const seed = path.join(root, 'seed');
  workspace = path.join(root, 'hello');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  git(root, 'init', '-q', '-b', 'main', seed);
  for (const [name, text] of Object.entries({
    'changed.txt': 'before\n',
    'deleted.txt': 'gone soon\n',
    'moved.txt': 'moving\n',
    'same.txt': 'same\n',
  })) {
    fs.writeFileSync(path.join(seed, name), text);
  }
  git(seed, 'add', '.');
  git(seed, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'start');
  git(seed, 'push', '-q', origin, 'main');
  git(root, 'clone', '-q', origin, workspace);
  // The agent's work: an edit, a delete, a rename committed (not pushed), a new file.
  fs.writeFileSync(path.join(workspace, 'changed.txt'), 'after\n');
  fs.rmSync(path.join(workspace, 'deleted.txt'));
  git(workspace, 'mv', 'moved.txt', 'renamed.txt');
  git(workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'rename');
  fs.mkdirSync(path.join(workspace, 'src'));
  fs.writeFileSync(path.join(workspace, 'src', 'new.txt'), 'new\n');

  // Its own directory is the sandbox's home (where it keeps conversations); the workspace is below.
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  server = await startAgentServer(home, undefined, AGENT_SERVER_SCRIPT, { OH_ALLOW_CORS_ORIGINS: '["https://console.example"]' });
  plain = path.join(root, 'plain');
  fs.mkdirSync(plain);
  const first = await server.call('POST', '/api/conversations', {
    agent: { llm: { model: 'openai/gpt-4o' } },
    workspace: { working_dir: plain },
  });
  expect(first.status).toBe(200);
  // The newest: OpenHands' web client's paths are read there.
  const created = await server.call('POST', '/api/conversations', {
    agent: { llm: { model: 'openai/gpt-4o' } },
    workspace: { working_dir: workspace },
  });
  expect(created.status).toBe(200);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A raw response: downloads are no JSON. */
const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${server.base}${url}`, { headers: { 'X-Session-API-Key': server.key, ...headers } });

const CHANGES = [
  { status: 'UPDATED', path: 'changed.txt' },
  { status: 'DELETED', path: 'deleted.txt' },
  { status: 'DELETED', path: 'moved.txt' },
  { status: 'ADDED', path: 'renamed.txt' },
  { status: 'ADDED', path: 'src/new.txt' },
];

describe('git changes and diff', () => {
  it('lists every file changed since the remote branch, by path, as the SDK reports them', async () => {
    expect(await server.call('GET', `/api/git/changes/${encodeURIComponent(workspace)}`)).toEqual({ status: 200, body: CHANGES });
    // The SDK's own client spells the absolute path with a double slash.
    expect((await server.call('GET', `/api/git/changes/${workspace}`)).body).toEqual(CHANGES);
  });

  it("answers OpenHands' web client at /workspace/project/<repository>, where it believes the workspace is", async () => {
    expect((await server.call('GET', `/api/git/changes/${encodeURIComponent('/workspace/project/hello')}`)).body).toEqual(CHANGES);
    const diff = await server.call('GET', `/api/git/diff/${encodeURIComponent('/workspace/project/hello/changed.txt')}`);
    expect(diff).toEqual({ status: 200, body: { original: 'before\n', modified: 'after\n' } });
  });

  it("gives a file's text at the start and now: '' for a file added or deleted", async () => {
    const diff = async (file: string) => (await server.call('GET', `/api/git/diff/${encodeURIComponent(path.join(workspace, file))}`)).body;
    expect(await diff('changed.txt')).toEqual({ original: 'before\n', modified: 'after\n' });
    expect(await diff('deleted.txt')).toEqual({ original: 'gone soon\n', modified: '' });
    expect(await diff('src/new.txt')).toEqual({ original: '', modified: 'new\n' });
    expect(await diff('same.txt')).toEqual({ original: 'same\n', modified: 'same\n' });
  });

  it('refuses a directory that is not a repository (400) or does not exist (404), and survives a path that is no encoding', async () => {
    const notRepo = await server.call('GET', `/api/git/changes/${encodeURIComponent(plain)}`);
    expect(notRepo).toEqual({ status: 400, body: { detail: `Not a git repository: ${plain}` } });
    expect((await server.call('GET', `/api/git/changes/${encodeURIComponent(path.join(workspace, 'no', 'such', 'dir'))}`)).status).toBe(
      404,
    );
    expect((await server.call('GET', '/api/git/changes/%zz')).status).toBe(404);
    expect((await server.call('GET', '/alive', undefined, null)).status).toBe(200);
  });
});

describe('files', () => {
  it('downloads a file as an attachment, and refuses a relative path, a directory and a missing file', async () => {
    const response = await get(`/api/file/download/${encodeURIComponent(path.join(workspace, 'changed.txt'))}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''changed.txt");
    expect(await response.text()).toBe('after\n');
    expect((await server.call('GET', '/api/file/download/relative.txt')).status).toBe(400);
    expect((await server.call('GET', `/api/file/download/${encodeURIComponent(workspace)}`)).body).toEqual({
      detail: 'Path is not a file',
    });
    expect((await server.call('GET', `/api/file/download/${encodeURIComponent(path.join(workspace, 'nope'))}`)).status).toBe(404);
  });

  it('takes an upload as OpenHands’ web client sends it (multipart, field "file"), making its directories', async () => {
    const target = path.join(workspace, 'uploads', 'notes.md');
    const form = new FormData();
    form.append('file', new Blob(['# notes\n']), 'notes.md');
    const uploaded = await fetch(`${server.base}/api/file/upload/${encodeURIComponent(target)}`, {
      method: 'POST',
      headers: { 'X-Session-API-Key': server.key },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    expect(await uploaded.json()).toEqual({ success: true });
    expect(fs.readFileSync(target, 'utf8')).toBe('# notes\n');
    fs.rmSync(path.dirname(target), { recursive: true });

    const noFile = await fetch(`${server.base}/api/file/upload/${encodeURIComponent(target)}`, {
      method: 'POST',
      headers: { 'X-Session-API-Key': server.key, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noFile.status).toBe(400);
    expect(fs.existsSync(target)).toBe(false);
  });

  it("takes OpenHands' uploads where it sends them: /workspace/<name>, and /workspace/project/<repository>/<name>", async () => {
    const upload = (at: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([`${name}\n`]), name);
      // Its paperclip sends the absolute path encoded as one segment.
      return fetch(`${server.base}/api/file/upload/${encodeURIComponent(at)}`, {
        method: 'POST',
        headers: { 'X-Session-API-Key': server.key },
        body: form,
      });
    };
    // No /workspace in a process sandbox: what OpenHands puts there goes into the newest conversation's workspace.
    expect(fs.existsSync('/workspace')).toBe(false);
    expect((await upload('/workspace/brief.md', 'brief.md')).status).toBe(200);
    expect(fs.readFileSync(path.join(workspace, 'brief.md'), 'utf8')).toBe('brief.md\n');
    // Its repository's directory is the workspace itself; a name that is not it stays a name of its own.
    expect((await upload('/workspace/project/hello/docs/plan.md', 'plan.md')).status).toBe(200);
    expect(fs.readFileSync(path.join(workspace, 'docs', 'plan.md'), 'utf8')).toBe('plan.md\n');
    expect((await upload('/workspace/project/data.csv', 'data.csv')).status).toBe(200);
    expect(fs.readFileSync(path.join(workspace, 'data.csv'), 'utf8')).toBe('data.csv\n');
    // And back, where the client asks for them.
    expect(await (await get(`/api/file/download/${encodeURIComponent('/workspace/brief.md')}`)).text()).toBe('brief.md\n');
    for (const file of ['brief.md', 'docs', 'data.csv']) fs.rmSync(path.join(workspace, file), { recursive: true });
  });

  it('refuses an upload to a path that cannot be a file with a 4xx saying why, never a 500', async () => {
    const upload = async (at: string) => {
      const form = new FormData();
      form.append('file', new Blob(['x']), 'x.txt');
      const response = await fetch(`${server.base}/api/file/upload/${encodeURIComponent(at)}`, {
        method: 'POST',
        headers: { 'X-Session-API-Key': server.key },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await upload(path.join(workspace, 'src'))).toEqual({
      status: 422,
      body: { detail: 'src is a directory: it cannot be written as a file' },
    });
    // The repository's directory OpenHands' client names is the workspace itself.
    expect(await upload('/workspace/project/hello')).toEqual({
      status: 422,
      body: { detail: 'hello is a directory: it cannot be written as a file' },
    });
    expect(await upload(path.join(workspace, 'same.txt', 'x.txt'))).toEqual({
      status: 422,
      body: { detail: 'x.txt cannot be written: a part of its path is a file, not a directory' },
    });
    expect(await upload(path.join(workspace, `${'n'.repeat(300)}.txt`))).toEqual({
      status: 422,
      body: { detail: 'The name is too long for the file system' },
    });
    expect(await upload('relative/x.txt')).toEqual({ status: 400, body: { detail: 'Path must be absolute' } });
    expect(fs.readFileSync(path.join(workspace, 'same.txt'), 'utf8')).toBe('same\n');
  });

  it('lists a directory, directories first, and sends it whole as a gzipped tar', async () => {
    const listing = await server.call('GET', `/api/file/list/${encodeURIComponent(workspace)}`);
    expect(listing.status).toBe(200);
    const { entries, truncated } = listing.body as { entries: { name: string; type: string; size: number | null }[]; truncated: boolean };
    expect(entries.map(({ name, type }) => `${type} ${name}`)).toEqual([
      'directory .git',
      'directory src',
      'file changed.txt',
      'file renamed.txt',
      'file same.txt',
    ]);
    expect(entries.find((entry) => entry.name === 'same.txt')?.size).toBe(5);
    expect(truncated).toBe(false);

    const response = await get(`/api/file/archive/${encodeURIComponent(workspace)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    const archive = path.join(root, 'workspace.tar.gz');
    fs.writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
    const names = execFileSync('tar', ['-tzf', archive]).toString().split('\n');
    expect(names).toEqual(expect.arrayContaining(['./changed.txt', './src/new.txt', './.git/HEAD']));
  });
});

describe('the workspace and nothing beside it', () => {
  const at = (...parts: string[]) => encodeURIComponent(path.join(workspace, ...parts));

  it('lists a link as a link, where it points, and follows none out of the workspace (422 saying so)', async () => {
    fs.symlinkSync('/', path.join(workspace, 'host'));
    fs.symlinkSync(root, path.join(workspace, 'up'));
    fs.symlinkSync('same.txt', path.join(workspace, 'alias.txt'));
    try {
      const listing = (await server.call('GET', `/api/file/list/${at()}`)).body as {
        entries: { name: string; type: string; link_target?: string }[];
      };
      expect(listing.entries.filter((entry) => entry.type === 'link')).toEqual([
        expect.objectContaining({ name: 'alias.txt', link_target: 'same.txt' }),
        expect.objectContaining({ name: 'host', link_target: '/' }),
        expect.objectContaining({ name: 'up', link_target: root }),
      ]);
      const outside = { status: 422, body: { detail: 'host is a link out of the workspace: it is not followed' } };
      expect(await server.call('GET', `/api/file/list/${at('host')}`)).toEqual(outside);
      expect(await server.call('GET', `/api/file/list/${at('host', 'etc')}`)).toEqual(outside);
      expect(await server.call('GET', `/api/file/download/${at('host', 'etc', 'passwd')}`)).toEqual(outside);
      expect(await server.call('GET', `/api/git/diff/${at('host', 'etc', 'passwd')}`)).toEqual(outside);
      expect((await server.call('GET', `/api/git/changes/${at('up', 'origin.git')}`)).status).toBe(422);
      expect((await get(`/api/file/archive/${at('up')}`)).status).toBe(422);

      const form = new FormData();
      form.append('file', new Blob(['planted']), 'planted.txt');
      const upload = await fetch(`${server.base}/api/file/upload/${at('up', 'planted.txt')}`, {
        method: 'POST',
        headers: { 'X-Session-API-Key': server.key },
        body: form,
      });
      expect(upload.status).toBe(422);
      expect(fs.existsSync(path.join(root, 'planted.txt'))).toBe(false);

      // A link that stays inside is followed.
      expect(await (await get(`/api/file/download/${at('alias.txt')}`)).text()).toBe('same\n');
    } finally {
      for (const link of ['host', 'up', 'alias.txt']) fs.rmSync(path.join(workspace, link));
    }
  });

  it('finds nothing outside every workspace, and answers a loop of links with what it is', async () => {
    for (const route of ['file/list', 'file/download', 'git/changes', 'git/diff']) {
      expect((await server.call('GET', `/api/${route}/${encodeURIComponent('/etc/passwd')}`)).status).toBe(404);
    }
    expect((await server.call('GET', `/api/file/list/${encodeURIComponent(root)}`)).status).toBe(404);
    fs.symlinkSync('loop', path.join(plain, 'loop'));
    try {
      expect(await server.call('GET', `/api/file/download/${encodeURIComponent(path.join(plain, 'loop'))}`)).toEqual({
        status: 422,
        body: { detail: 'loop is a loop of links' },
      });
    } finally {
      fs.rmSync(path.join(plain, 'loop'));
    }
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${server.base}/api/git/changes/x`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-session-api-key' },
    });

  it('answers a preflight without the key for a loopback origin or one the server allows, and refuses any other', async () => {
    for (const origin of ['http://localhost:3000', 'https://console.example']) {
      const response = await preflight(origin);
      expect(response.status, origin).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-headers')).toBe('x-session-api-key');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const refused = await preflight('https://elsewhere.example');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('names an allowed origin on responses, the 401 of a request without the key included', async () => {
    const ok = await get(`/api/git/changes/${encodeURIComponent(workspace)}`, { origin: 'https://console.example' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://console.example');
    const unauthorized = await fetch(`${server.base}/api/conversations`, { headers: { origin: 'http://localhost:3000' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const other = await get('/api/conversations', { origin: 'https://elsewhere.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
