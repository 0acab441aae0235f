import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { type Db, migrateToLatest, openPostgres } from '../store/database';
import { InstancesStore } from '../store/instances-store';
import { freshPostgresDatabase } from '../testing/databases';
import { DEFAULT_INSTANCE_TIMING, InstanceRegistry } from './instance-registry';

/** Instances on several machines, whose clocks differ: heartbeats go by the database's clock. */
describe('instance registry on postgres', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const fresh = await freshPostgresDatabase();
    db = openPostgres(fresh.url);
    drop = fresh.drop;
    await migrateToLatest(db);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await db.destroy();
    await drop();
  });

  it("an instance whose clock runs ahead of another's does not take the other for quiet, nor the other it", async () => {
    const store = new InstancesStore(db);
    const [a, b] = ['a', 'b'].map((id) => new InstanceRegistry(store, id, DEFAULT_INSTANCE_TIMING, createLogger(false)));
    await a!.start();
    await a!.announce('http://a.example');
    // b's machine is an hour ahead.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
    await b!.start();
    await b!.announce('http://b.example');
    expect(await b!.owner('a')).toEqual({ reachable: true, id: 'a', address: 'http://a.example' });
    vi.useRealTimers();
    expect(await a!.owner('b')).toEqual({ reachable: true, id: 'b', address: 'http://b.example' });
    await a!.stop();
    await b!.stop();
  });
});
