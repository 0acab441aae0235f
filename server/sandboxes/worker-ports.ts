import type { SandboxRecord } from '../store/sandboxes-store';

/*
 * The ports a sandbox's apps listen on (app previews), as OpenHands names them: WORKER_1 and
 * WORKER_2 in the sandbox's environment, and the same names among its exposed URLs.
 */

/** WORKER_1, WORKER_2…: the ports its apps listen on (app previews), as OpenHands names them. */
export const workerEnv = (ports: readonly number[]) =>
  Object.fromEntries(ports.map((port, index) => [`WORKER_${index + 1}`, String(port)]));

/** Where one of a sandbox's apps is reached from this machine, and the port it listens on inside. */
export interface WorkerUrl {
  url: string;
  port: number;
}

/** Read once per record: a search looks at every sandbox, and the registry's rows are kept (SQLite). */
const parsed = new WeakMap<object, number[]>();

/** The ports its apps listen on, as recorded; none for a sandbox recorded before they were. */
export function storedWorkerPorts(record: Pick<SandboxRecord, 'worker_ports'>): number[] {
  let ports = parsed.get(record);
  if (!ports) {
    const stored: unknown = record.worker_ports ? JSON.parse(record.worker_ports) : [];
    ports = Array.isArray(stored) ? stored.filter((port): port is number => Number.isInteger(port)) : [];
    parsed.set(record, ports);
  }
  return ports;
}
