import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface DumbHttpRepo {
  /** e.g. http://127.0.0.1:41234 — a git provider host: repositories are at `<host>/<owner>/<name>.git`. */
  host: string;
  /** Every Authorization header the server received. */
  authorizations: string[];
  close: () => Promise<void>;
}

export interface RepoFiles {
  /** Files of the first commit, by path. */
  files: Record<string, string>;
  /** Branches besides the default one (`main`), each with one more commit. */
  branches?: Record<string, Record<string, string>>;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
    stdio: 'pipe',
  });

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content, { mode: file.endsWith('.sh') ? 0o755 : 0o644 });
  }
}

/** A bare repository `owner/name` with `content`, made with the real git. */
function bareRepository(root: string, owner: string, name: string, content: RepoFiles): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'repo-work-'));
  git(work, 'init', '--quiet', '--initial-branch=main');
  writeFiles(work, content.files);
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'first');
  for (const [branch, files] of Object.entries(content.branches ?? {})) {
    git(work, 'checkout', '--quiet', '-b', branch);
    writeFiles(work, files);
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', branch);
    git(work, 'checkout', '--quiet', 'main');
  }
  const bare = path.join(root, owner, `${name}.git`);
  fs.mkdirSync(path.dirname(bare), { recursive: true });
  git(root, 'clone', '--quiet', '--bare', work, bare);
  git(bare, 'update-server-info'); // what git's dumb HTTP protocol reads
  fs.rmSync(work, { recursive: true, force: true });
}

/** Serves bare repositories made for a test over git's dumb HTTP protocol, from a request handler of some server. */
export interface DumbHttpFiles {
  /** Responds to a request for a file of a repository. */
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => void;
  /** Every Authorization header it received. */
  authorizations: string[];
  /** Removes the repositories. */
  remove: () => void;
}

/**
 * The files of bare repositories made for the test, served only to a request that carries
 * `token` as HTTP Basic (to anyone when `token` is null): repositories are at `/<owner>/<name>.git`.
 */
export function dumbHttpFiles(repos: Record<string, RepoFiles>, token: string | null): DumbHttpFiles {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dumb-http-'));
  for (const [fullName, content] of Object.entries(repos)) {
    const [owner, name] = fullName.split('/') as [string, string];
    bareRepository(root, owner, name, content);
  }
  const authorizations: string[] = [];
  return {
    authorizations,
    handle: (request, response) => {
      const authorization = request.headers.authorization ?? '';
      authorizations.push(authorization);
      const credentials = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString();
      if (token !== null && !credentials.endsWith(`:${token}`)) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="test"' }).end();
        return;
      }
      const file = path.join(root, decodeURIComponent((request.url ?? '/').split('?', 1)[0] ?? '/'));
      if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(fs.readFileSync(file));
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Git's dumb HTTP protocol from bare repositories made for the test (`dumbHttpFiles`), on a
 * server of its own. It listens on `address` (loopback; a container reaches the host on its
 * bridge's gateway).
 */
export async function startDumbHttpRepo(
  repos: Record<string, RepoFiles>,
  token: string | null,
  address = '127.0.0.1',
): Promise<DumbHttpRepo> {
  const files = dumbHttpFiles(repos, token);
  const server = http.createServer(files.handle);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    host: `http://${address}:${port}`,
    authorizations: files.authorizations,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      files.remove();
    },
  };
}
