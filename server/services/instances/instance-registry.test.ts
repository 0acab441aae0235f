import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../logger';
import { type Db, migrateToLatest, openPostgres } from '../../store/database';
import { GLOBAL_WORK_LOCK, INSTANCE_ID_LOCKS, InstanceLocks } from '../../store/instance-locks';
import { InstancesStore } from '../../store/instances-store';
import { StartTasksStore } from '../../store/start-tasks-store';
import { advisoryLockHolders } from '../../testing/advisory-locks';
import { startTaskRecord } from '../../testing/conversation-records';
import { freshPostgresDatabase } from '../../testing/databases';
import { DEFAULT_INSTANCE_TIMING, InstanceRegistry, type InstanceTiming } from './instance-registry';

/** Instances on several machines (their own sessions, their own clocks) on one PostgreSQL database. */
describe('instance registry on postgres', () => {
  let db: Db;
  let url: string;
  let drop: () => Promise<void>;
  const registries: InstanceRegistry[] = [];
  const alsoDropped: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    const fresh = await freshPostgresDatabase();
    url = fresh.url;
    db = openPostgres(url);
    drop = fresh.drop;
    await migrateToLatest(db);
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const registry of registries.splice(0)) await registry.stop();
    await db.destroy();
    await drop();
    for (const other of alsoDropped.splice(0)) await other();
  });

  const log = createLogger(false);
  function registry(id: string, timing: InstanceTiming = DEFAULT_INSTANCE_TIMING, on = { db, url }): InstanceRegistry {
    const created = new InstanceRegistry(new InstancesStore(on.db), id, timing, log, new InstanceLocks(on.url, log));
    registries.push(created);
    return created;
  }
  /** An id as long as a real one (DATA_DIR/instance-id). */
  const instanceId = () => randomBytes(32).toString('base64url');

  /** An instance on another database of the same cluster, holding that database's global work. */
  async function instanceOnAnotherDatabase(): Promise<void> {
    const other = await freshPostgresDatabase();
    const otherDb = openPostgres(other.url);
    alsoDropped.push(async () => {
      await otherDb.destroy();
      await other.drop();
    });
    await migrateToLatest(otherDb);
    const elsewhere = registry(instanceId(), DEFAULT_INSTANCE_TIMING, { db: otherDb, url: other.url });
    await elsewhere.start();
    expect(elsewhere.holdsGlobalWork).toBe(true);
  }

  const holders = (space: number) => advisoryLockHolders(db, space);
  /** Starts `instance` once its id is free: PostgreSQL drops an ended session's locks a moment later. */
  const startOnceFree = (instance: InstanceRegistry) =>
    vi.waitFor(
      async () => {
        await instance.start();
        return true;
      },
      { timeout: 10_000 },
    );

  it("an instance whose clock runs ahead of another's does not take the other for quiet, nor the other it", async () => {
    const [a, b] = [registry('a'), registry('b')];
    await a.start();
    await a.announce('http://a.example');
    // b's machine is an hour ahead.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
    await b.start();
    await b.announce('http://b.example');
    expect(await b.owner('a')).toEqual({ reachable: true, id: 'a', address: 'http://a.example' });
    vi.useRealTimers();
    expect(await a.owner('b')).toEqual({ reachable: true, id: 'b', address: 'http://b.example' });
  });

  it('both try for the global work; exactly one holds it and does it, and when it stops the other takes over', async () => {
    const tasks = new StartTasksStore(db);
    const rounds: string[] = [];
    await instanceOnAnotherDatabase();
    const [a, b] = [instanceId(), instanceId()].map((id) => {
      const created = registry(id, { heartbeatMs: 50, quietMs: 30_000 });
      created.addGlobalWork(async (quietSince) => {
        rounds.push(id);
        await tasks.interruptOfGoneInstances(id, quietSince, 'Ended by the holder of the global work', new Date().toISOString());
      });
      return created;
    }) as [InstanceRegistry, InstanceRegistry];
    await Promise.all([a.start(), b.start()]);

    // Both write heartbeats (and try for the lock at each) a few times over.
    const beats = async () => (await new InstancesStore(db).list()).map((record) => record.heartbeat_at);
    const first = await beats();
    for (let i = 0; i < 3; i++) {
      const before = await beats();
      await vi.waitFor(
        async () => {
          const now = await beats();
          for (const [index, at] of now.entries()) expect(at > before[index]!, `beat ${index} after ${before[index]}`).toBe(true);
        },
        { timeout: 10_000 },
      );
    }
    expect((await beats()).every((at, index) => at > first[index]!)).toBe(true);
    const holder = [a, b].filter((r) => r.holdsGlobalWork);
    expect(holder).toHaveLength(1);
    const [other] = [a, b].filter((r) => !r.holdsGlobalWork);
    expect(await holders(GLOBAL_WORK_LOCK[0])).toHaveLength(1);
    expect(new Set(rounds)).toEqual(new Set([holder[0]!.id]));

    await tasks.insert(startTaskRecord({ id: 'left-by-the-holder', status: 'PREPARING_REPOSITORY', owner_instance: holder[0]!.id }));
    await holder[0]!.stop();
    await expect.poll(() => other!.holdsGlobalWork, { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() => tasks.get('default', 'left-by-the-holder'), { timeout: 10_000 })
      .toMatchObject({ status: 'ERROR', detail: 'Ended by the holder of the global work' });
    expect(rounds.at(-1)).toBe(other!.id);
    expect(await holders(GLOBAL_WORK_LOCK[0])).toHaveLength(1);
  });

  it('a holder that went quiet while its session lives on (a hung process) loses the global work to another', async () => {
    await instanceOnAnotherDatabase();
    const hung = registry(instanceId(), { heartbeatMs: 60_000, quietMs: 30_000 }); // writes no heartbeat after its start
    await hung.start();
    expect(hung.holdsGlobalWork).toBe(true);
    const rounds: string[] = [];
    const other = registry(instanceId(), { heartbeatMs: 50, quietMs: 1_000 });
    other.addGlobalWork(async () => void rounds.push('other'));
    await other.start();
    expect(other.holdsGlobalWork).toBe(false);
    await expect.poll(() => other.holdsGlobalWork, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => hung.holdsGlobalWork, { timeout: 10_000 }).toBe(false);
    await expect.poll(() => rounds.length, { timeout: 10_000 }).toBeGreaterThan(0);
  });

  /** A TCP relay to the database that can go silent (forward nothing, close nothing), as a network that fails does. */
  async function relay(): Promise<{ url: string; goSilent: () => void; close: () => Promise<void> }> {
    const target = new URL(url);
    const sockets: net.Socket[] = [];
    let silent = false;
    const server = net.createServer((client) => {
      sockets.push(client);
      if (silent) return;
      const upstream = net.connect(Number(target.port), target.hostname);
      sockets.push(upstream);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        from.on('data', (chunk) => void (silent || to.write(chunk)));
        from.on('error', () => undefined);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const through = new URL(url);
    through.port = String((server.address() as net.AddressInfo).port);
    return {
      url: through.toString(),
      goSilent: () => void (silent = true),
      close: () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    };
  }

  it('a holder whose connection went silent finds out it lost the global work, while another takes it', async () => {
    const network = await relay();
    alsoDropped.unshift(network.close);
    const cut = registry(instanceId(), { heartbeatMs: 50, quietMs: 30_000 }, { db, url: network.url });
    await cut.start();
    expect(cut.holdsGlobalWork).toBe(true);

    // Its network fails, and the database ends its session (as keepalive does): it is not notified of it.
    network.goSilent();
    const [session] = await holders(GLOBAL_WORK_LOCK[0]);
    await sql`SELECT pg_terminate_backend(${session})`.execute(db);
    const other = registry(instanceId(), { heartbeatMs: 50, quietMs: 30_000 });
    await other.start();
    expect(other.holdsGlobalWork).toBe(true);
    await expect.poll(() => cut.holdsGlobalWork, { timeout: 30_000 }).toBe(false);
  });

  it('an instance that cannot take its id lock again (the database refuses its connections) keeps writing its heartbeat', async () => {
    const network = await relay();
    alsoDropped.unshift(network.close);
    const id = instanceId();
    const cut = registry(id, { heartbeatMs: 50, quietMs: 30_000 }, { db, url: network.url });
    await cut.start();
    await network.close(); // its session ends, and every connection to take the lock again is refused

    const beat = async () => (await new InstancesStore(db).get(id))!.heartbeat_at;
    for (let i = 0; i < 3; i++) {
      const before = await beat();
      await expect.poll(async () => (await beat()) > before, { timeout: 10_000 }).toBe(true);
    }
  });

  it('an instance that lost its session while a twin took its id learns so at its next heartbeat', async () => {
    const id = instanceId();
    const first = registry(id, { heartbeatMs: 1_000, quietMs: 30_000 });
    const taken: string[] = [];
    first.whenIdTaken((message) => void taken.push(message));
    await first.start();
    // Right after a heartbeat, so that the next is a second away.
    const beat = async () => (await new InstancesStore(db).get(id))!.heartbeat_at;
    const before = await beat();
    await expect.poll(async () => (await beat()) > before, { timeout: 10_000 }).toBe(true);
    const [session] = await holders(INSTANCE_ID_LOCKS);
    await sql`SELECT pg_terminate_backend(${session})`.execute(db);
    expect(await startOnceFree(registry(id))).toBe(true);

    await expect
      .poll(() => taken, { timeout: 10_000 })
      .toEqual([
        `Another process runs as server instance ${id} now: this one lost its database session and the other took its id. Each instance needs a DATA_DIR of its own.`,
      ]);
  });

  it('a start that fails after taking the id lock lets the id go', async () => {
    // Its registry table is missing: registering fails once the lock is held.
    const unmigrated = await freshPostgresDatabase();
    const unmigratedDb = openPostgres(unmigrated.url);
    alsoDropped.push(async () => {
      await unmigratedDb.destroy();
      await unmigrated.drop();
    });
    const failing = new InstanceRegistry(
      new InstancesStore(unmigratedDb),
      instanceId(),
      DEFAULT_INSTANCE_TIMING,
      log,
      new InstanceLocks(url, log),
    );
    await expect(failing.start()).rejects.toThrow('server_instances');
    expect(await holders(INSTANCE_ID_LOCKS)).toEqual([]);
  });

  it('a second process with the same instance id is refused while the first runs, and may start once it is gone', async () => {
    await instanceOnAnotherDatabase();
    const id = instanceId();
    const first = registry(id);
    await first.start();
    const twin = registry(id);
    await expect(twin.start()).rejects.toThrow(`The server instance id ${id} (DATA_DIR/instance-id) is in use: another running instance`);
    await first.stop();
    await twin.start();

    // A process that dies (its session ends without a stop) frees its id too.
    const [session] = await holders(INSTANCE_ID_LOCKS);
    await sql`SELECT pg_terminate_backend(${session})`.execute(db);
    expect(await startOnceFree(registry(id))).toBe(true);
    expect(await holders(INSTANCE_ID_LOCKS)).toHaveLength(1);
  });
});
