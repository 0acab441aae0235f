import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/*
 * Throwaway PostgreSQL for tests: one cluster per test run (see postgres-global-setup.ts) on
 * loopback, in a temp dir, as an unprivileged user; one database per test file.
 */

const VERSIONS = ['17', '16', '15'];

/** The directory of initdb/pg_ctl: PG_BIN, else Debian's newest installed PostgreSQL. */
export function postgresBin(): string | undefined {
  const candidates = [process.env.PG_BIN, ...VERSIONS.map((v) => `/usr/lib/postgresql/${v}/bin`)].filter((dir) => dir !== undefined);
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** initdb refuses to run as root: then the cluster belongs to the `postgres` user (or `nobody`). */
function clusterUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' });
    return 'postgres';
  } catch {
    return 'nobody';
  }
}

export interface PostgresCluster {
  /** postgres://… to the `postgres` database, as its superuser. */
  adminUrl: string;
  stop: () => void;
}

/** Starts a fresh cluster; throws (with its log) when it cannot. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin)
    throw new Error('PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin; set PG_BIN or apt-get install postgresql)');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-pg-'));
  const user = clusterUser();
  if (user) execFileSync('chown', [`${user}:`, root]);
  const run = (command: string, args: string[]) =>
    execFileSync(user ? 'runuser' : command, user ? ['-u', user, '--', command, ...args] : args, { stdio: 'pipe', cwd: root });
  const data = path.join(root, 'data');
  const port = await freePort();
  const stop = () => {
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not running (a failed start): only the files are left to remove
    }
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    // C collation: text sorts by code point, as SQLite's does, so both databases page titles alike.
    run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const options = [
      `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${root}`,
      // a test database: durability buys nothing, and many test apps connect at once
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300',
    ].join(' ');
    run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(root, 'log'), '-w', '-t', '60', '-o', options, 'start']);
  } catch (error) {
    const log = fs.existsSync(path.join(root, 'log')) ? fs.readFileSync(path.join(root, 'log'), 'utf8') : '';
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    stop();
    throw new Error(`PostgreSQL did not start: ${output}\n${log}`, { cause: error });
  }
  return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the cluster; returns its URL. With `icuLocale` (such as `en-US`) its
 * text sorts by that locale's rules, as a production database's usually does, instead of the
 * cluster's C (the machine may have no such libc locale, ICU has them all).
 */
export async function createDatabase(adminUrl: string, icuLocale?: string): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const locale = icuLocale ? ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale.replace(/[^\w-]/g, '')}'` : '';
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${locale}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** How long a dropped database's closed pools have to be gone before their connections are ended. */
const DROP_WAIT_MS = 5_000;

/**
 * Drops the database at `url`. Connections its pools closed may still be on their way out; ending
 * them then would reach a client as an uncaught error, so they are waited for, and ended only after a while.
 */
export async function dropDatabase(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await asAdmin(adminUrl, async (client) => {
    for (const deadline = Date.now() + DROP_WAIT_MS; Date.now() < deadline;) {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (Number(rows[0]?.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}
