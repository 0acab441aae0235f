import type { ResourceLimits, ResourceSample, SandboxResources } from '../../../src/contract/sandbox-resources';
import { asSystem } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { type Clock, systemClock } from '../../clock';
import type { Logger } from '../../logger';
import type { RuntimeState, SandboxRuntime } from '../../sandboxes/runtime';
import type { SandboxRecord } from '../../store/sandboxes-store';

const METER = asSystem('meter sandbox running time');
const HOUR_MS = 3_600_000;

/** This instance's sandboxes, each with what its runtime sees of it now. */
export interface OwnSandboxes {
  ownStates(): Promise<{ record: SandboxRecord; state: RuntimeState }[]>;
}

export interface MeterTiming {
  /** How often running sandboxes are looked at (their CPU, memory, running time). */
  sampleEveryMs: number;
  /** How often a running sandbox's stretch is written on (what a crash can lose at most). */
  writeEveryMs: number;
  /** How often a workspace is measured (a walk of its files). */
  diskEveryMs: number;
}

export const DEFAULT_METER_TIMING: MeterTiming = { sampleEveryMs: 5000, writeEveryMs: 60_000, diskEveryMs: 60_000 };

/**
 * Meters this instance's sandboxes as they run: the stretches each runs (written as it starts,
 * stops and, while it runs, every minute, so a day's figures survive a restart and add up over
 * instances) and what each uses (CPU, memory, workspace disk), the last hour kept in memory.
 */
export class SandboxMeter {
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #sandboxes: OwnSandboxes | undefined;
  readonly #samples = new Map<string, ResourceSample[]>();
  readonly #limits = new Map<string, ResourceLimits>();
  readonly #cpu = new Map<string, { at: number; seconds: number }>();
  readonly #disk = new Map<string, { at: number; bytes: number }>();
  readonly #written = new Map<string, number>();
  /** Sandboxes seen not running whose stretch is closed already. */
  readonly #closed = new Set<string>();

  constructor(
    private readonly data: DataAccess,
    private readonly runtime: SandboxRuntime,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    private readonly timing: MeterTiming = DEFAULT_METER_TIMING,
  ) {}

  /** Looks at `sandboxes` now and every few seconds from now on. */
  async start(sandboxes: OwnSandboxes): Promise<void> {
    this.#sandboxes = sandboxes;
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.lookNow(), this.timing.sampleEveryMs);
      this.#timer.unref();
    }
    await this.lookNow();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One round over this instance's sandboxes; a round under way is joined. */
  lookNow(): Promise<void> {
    this.#round ??= this.#look()
      .catch((error: unknown) => this.log.warn({ err: error }, 'a round of sandbox metering failed'))
      .finally(() => (this.#round = undefined));
    return this.#round;
  }

  async #look(): Promise<void> {
    const seen = (await this.#sandboxes?.ownStates()) ?? [];
    const ids = new Set(seen.map(({ record }) => record.id));
    for (const id of this.#samples.keys()) if (!ids.has(id)) this.#forget(id);
    await Promise.all(
      seen.map(async ({ record, state }) => {
        if (state === 'running') {
          await this.#sample(record);
          const last = this.#written.get(record.id);
          if (last === undefined || this.clock().getTime() - last >= this.timing.writeEveryMs) await this.running(record);
        } else if (!this.#closed.has(record.id)) {
          // Found stopped: when is unknown, so its stretch ends where it was last seen running.
          await this.data.as(METER).usage.lastSeenStopped(record.id);
          this.#closed.add(record.id);
          this.#cpu.delete(record.id);
          this.#written.delete(record.id);
        }
      }),
    );
  }

  async #sample(record: SandboxRecord): Promise<void> {
    if (!this.runtime.resourceUse) return;
    const now = this.clock().getTime();
    const lastDisk = this.#disk.get(record.id);
    const measureDisk = !lastDisk || now - lastDisk.at >= this.timing.diskEveryMs;
    const use = await this.runtime.resourceUse(record, { disk: measureDisk }).catch((error: unknown) => {
      this.log.debug({ sandbox: record.id, err: error }, 'could not read what a sandbox uses');
      return undefined;
    });
    if (!use) return;
    if (use.diskBytes !== undefined) this.#disk.set(record.id, { at: now, bytes: use.diskBytes });
    this.#limits.set(record.id, {
      cpus: use.limits.cpus,
      memory_bytes: use.limits.memoryBytes,
      disk_bytes: use.limits.diskBytes,
    });
    const before = this.#cpu.get(record.id);
    this.#cpu.set(record.id, { at: now, seconds: use.cpuSeconds });
    // A rate needs two looks: the first only sets where the count starts.
    if (!before || now <= before.at) return;
    const cpuPercent = Math.max(0, ((use.cpuSeconds - before.seconds) / ((now - before.at) / 1000)) * 100);
    const samples = this.#samples.get(record.id) ?? [];
    samples.push({
      at: new Date(now).toISOString(),
      cpu_percent: Math.round(cpuPercent * 10) / 10,
      memory_bytes: use.memoryBytes,
      disk_bytes: this.#disk.get(record.id)?.bytes ?? null,
    });
    const since = new Date(now - HOUR_MS).toISOString();
    while (samples.length > 0 && samples[0]!.at < since) samples.shift();
    this.#samples.set(record.id, samples);
  }

  #forget(id: string): void {
    for (const map of [this.#samples, this.#limits, this.#cpu, this.#disk, this.#written]) map.delete(id);
    this.#closed.delete(id);
  }

  /** It runs (started, resumed, or seen running): its stretch goes on to now. */
  async running(record: Pick<SandboxRecord, 'id' | 'created_by_user_id'>): Promise<void> {
    const now = this.clock();
    this.#closed.delete(record.id);
    this.#written.set(record.id, now.getTime());
    await this.data
      .as(METER)
      .usage.running({ sandbox_id: record.id, user_id: record.created_by_user_id, runtime: this.runtime.name }, now.toISOString())
      .catch((error: unknown) => this.log.warn({ sandbox: record.id, err: error }, 'could not record a sandbox running'));
  }

  /** It stopped now (paused, deleted, ended): its stretch closes. */
  async stopped(id: string): Promise<void> {
    this.#closed.add(id);
    this.#cpu.delete(id);
    this.#written.delete(id);
    await this.data
      .as(METER)
      .usage.stopped(id, this.clock().toISOString())
      .catch((error: unknown) => this.log.warn({ sandbox: id, err: error }, 'could not record a sandbox stopping'));
  }

  /** Its last hour of looks, and its limits (`null` before the first look). */
  resources(id: string): SandboxResources {
    return { sandbox_id: id, limits: this.#limits.get(id) ?? null, samples: this.#samples.get(id) ?? [] };
  }

  /** Each one's last look. */
  latest(ids: string[]) {
    return ids.map((id) => ({ sandbox_id: id, latest: this.#samples.get(id)?.at(-1) ?? null, limits: this.#limits.get(id) ?? null }));
  }
}
