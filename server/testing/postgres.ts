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
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = () => {
    // Not waited for: the immediate stop below ends those sessions anyway.
    void endAdminSessions(adminUrl);
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
  return { adminUrl, stop };
}

/**
 * Each cluster's superuser sessions, kept open for the worker's tests: every session PostgreSQL
 * starts is a process of its own, and a test made and dropped its database in two new ones.
 */
const adminPools = new Map<string, pg.Pool>();

function adminPool(adminUrl: string): pg.Pool {
  let pool = adminPools.get(adminUrl);
  if (!pool) {
    // Two: a test's drop need not wait behind the copies made ahead for the next tests.
    pool = new pg.Pool({ connectionString: adminUrl, max: 2, idleTimeoutMillis: 0, allowExitOnIdle: true });
    // A session the cluster ended (its stop) is an error of the idle pool, not of any test.
    pool.on('error', () => undefined);
    adminPools.set(adminUrl, pool);
  }
  return pool;
}

async function asAdmin<T>(adminUrl: string, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  const client = await adminPool(adminUrl).connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

/** Ends the sessions `asAdmin` keeps open to a cluster, before the cluster stops. */
async function endAdminSessions(adminUrl: string): Promise<void> {
  const pool = adminPools.get(adminUrl);
  adminPools.delete(adminUrl);
  await pool?.end();
}

export interface NewDatabaseOptions {
  /** Collate text by this ICU locale (such as `en-US`), as a production database usually does, instead of the cluster's C (the machine may have no such libc locale, ICU has them all). */
  icuLocale?: string;
  /** A copy of this database (one nobody is connected to) instead of an empty one; not with `icuLocale`, which copies template0. */
  template?: string;
}

/**
 * A new database on the cluster, empty or a copy of `template`; returns its URL. Copied file by
 * file: for a small database that is cheaper than WAL-logging each block (PostgreSQL's default).
 */
export async function createDatabase(adminUrl: string, { icuLocale, template }: NewDatabaseOptions = {}): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const locale = icuLocale ? ` LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale.replace(/[^\w-]/g, '')}'` : '';
  if (icuLocale && template) throw new Error('A database copied from a template keeps its collation: give icuLocale or template, not both');
  const source = icuLocale ? 'template0' : (template ?? 'template1');
  await asAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${source} STRATEGY FILE_COPY${locale}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** How long a database's closed pools have to be gone before their connections are ended. */
const CLOSE_WAIT_MS = 5_000;

/** Waits (a while at most) until no session is connected to database `name`: a closed pool's connections take a moment to go. Whether they went. */
async function untilNobodyConnected(client: pg.ClientBase, name: string): Promise<boolean> {
  for (const deadline = Date.now() + CLOSE_WAIT_MS; Date.now() < deadline;) {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (Number(rows[0]?.n) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * A database on the cluster made by `prepare` (given its URL, and to close all it opened), to be
 * copied by `createDatabase`'s `template`; returns its name, once nobody is connected to it.
 */
export async function createTemplateDatabase(adminUrl: string, prepare: (url: string) => Promise<void>): Promise<string> {
  const url = await createDatabase(adminUrl);
  await prepare(url);
  const name = new URL(url).pathname.slice(1);
  // Said here, not as every copy's "source database is being accessed by other users".
  if (!(await asAdmin(adminUrl, (client) => untilNobodyConnected(client, name))))
    throw new Error(`The template database ${name} still has sessions: whatever prepared it must close them`);
  return name;
}

/**
 * Drops the database at `url`. Connections its pools closed may still be on their way out; ending
 * them then would reach a client as an uncaught error, so they are waited for, and ended only after a while.
 */
export async function dropDatabase(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await asAdmin(adminUrl, async (client) => {
    await untilNobodyConnected(client, name);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}
