import type { SandboxInfo } from '../../../src/contract/sandboxes';
import type { Subject } from '../../authz/caller';
import type { SandboxRecords } from '../../authz/sandboxes';
import type { HealthMonitor } from '../../sandboxes/health-monitor';
import type { RuntimeState, SandboxRuntime } from '../../sandboxes/runtime';
import { sandboxStatus } from '../../sandboxes/status';
import type { WorkerUrl } from '../../sandboxes/worker-ports';
import type { SecretBox } from '../../secret-box';
import type { SandboxRecord } from '../../store/sandboxes-store';
import { memoised } from '../json-texts';
import type { SandboxOwners } from './sandbox-owners';

/** What the runtime sees of a sandbox: its state, and where its agent server and apps are reached. */
export interface Look {
  state: RuntimeState;
  url: string | undefined;
  workerUrls: WorkerUrl[];
}

/**
 * What the runtime sees of a sandbox and where its agent server listens, asked together (a
 * runtime handles the questions asked at once about all sandboxes with one look at them).
 */
export async function look(runtime: SandboxRuntime, record: SandboxRecord): Promise<Look> {
  const [state, url, workerUrls] = await Promise.all([runtime.state(record), runtime.agentServerUrl(record), runtime.workerUrls(record)]);
  return { state, url, workerUrls };
}

/** Its apps' entries among its exposed URLs (WORKER_1, WORKER_2), each with its port inside the sandbox. */
const exposedWorkers = (urls: WorkerUrl[]) => urls.map(({ url, port }, index) => ({ name: `WORKER_${index + 1}`, url, port }));

/** Each info's copy without its key, made once (so its JSON text is written once too, see `memoised`). */
const keylessCopies = new WeakMap<SandboxInfo, SandboxInfo>();

/** A sandbox's info for one who may see it but not use it: no key to its agent server. */
function keyless(info: SandboxInfo): SandboxInfo {
  if (info.session_api_key === null) return info;
  let copy = keylessCopies.get(info);
  if (!copy) keylessCopies.set(info, (copy = memoised({ ...info, session_api_key: null })));
  return copy;
}

/**
 * Sandboxes' infos as the API shows them: a status from what the runtime sees, the health checks
 * and how each one ended; another instance's as that instance responds for it. The key to a
 * sandbox's agent server is in its info only while it runs, and only for one who may use it.
 */
export class SandboxInfos {
  /** Session keys opened, by their sealed text: every search returns each running sandbox's key. */
  readonly #openedKeys = new Map<string, string>();
  /**
   * The last info of each record (a cached read's, the same object until the registry changes),
   * returned again while its status is the same: its text is then written once (see `memoised`).
   */
  readonly #lastInfo = new WeakMap<SandboxRecord, SandboxInfo>();

  constructor(
    private readonly box: SecretBox,
    private readonly runtime: SandboxRuntime,
    private readonly owners: SandboxOwners,
    private readonly health: Pick<HealthMonitor, 'healthy'>,
    private readonly startTimeoutMs: number,
  ) {}

  /** Its info with its key: give it out through `shownTo`. */
  async of(record: SandboxRecord, subject: Subject): Promise<SandboxInfo> {
    if (!this.owners.mine(record)) return this.owners.foreignInfo(record, subject);
    return this.now(record) ?? this.#of(record, await look(this.runtime, record));
  }

  /** Its info without waiting, when this instance runs it and the runtime sees it at once (see SandboxRuntime.lookNow). */
  now(record: SandboxRecord): SandboxInfo | undefined {
    return this.runtime.lookNow && this.owners.mine(record) ? this.#of(record, this.runtime.lookNow(record)) : undefined;
  }

  /** Its info as whoever `sandboxes` is bound to may have it: without its key for one who may see it but not use it. */
  shownTo(sandboxes: SandboxRecords, record: SandboxRecord, info: SandboxInfo): SandboxInfo {
    return sandboxes.may('use', record) ? info : keyless(info);
  }

  /** The key to its agent server, from its sealed text. */
  sessionKey(sealed: string): string {
    let key = this.#openedKeys.get(sealed);
    if (key === undefined) {
      if (this.#openedKeys.size >= 1000) this.#openedKeys.clear(); // keys of sandboxes deleted long ago
      key = this.box.open(sealed);
      this.#openedKeys.set(sealed, key);
    }
    return key;
  }

  #of(record: SandboxRecord, { state, url, workerUrls }: Look): SandboxInfo {
    const { status, detail } = sandboxStatus({
      state,
      healthy: this.health.healthy(record.id),
      exitDetail: record.exit_detail,
      startedAt: record.started_at,
      now: Date.now(),
      startTimeoutMs: this.startTimeoutMs,
      image: record.image,
    });
    const running = status === 'RUNNING' && url !== undefined;
    const last = this.#lastInfo.get(record);
    if (last?.status === status && last.status_detail === detail && last.exposed_urls?.[0]?.url === (running ? url : undefined))
      return last;
    const info: SandboxInfo = memoised({
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      sandbox_spec_id: record.spec_id,
      status,
      session_api_key: running ? this.sessionKey(record.session_key) : null,
      exposed_urls: running ? [{ name: 'AGENT_SERVER', url, port: record.port }, ...exposedWorkers(workerUrls)] : null,
      created_at: record.created_at,
      status_detail: detail,
    });
    this.#lastInfo.set(record, info);
    return info;
  }
}
