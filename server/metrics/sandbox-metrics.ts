import { Gauge, type Registry } from 'prom-client';
import type { SandboxRuntimeName } from '../../src/contract/sandboxes';
import { asSystem } from '../authz/caller';
import type { SandboxService } from '../services/sandboxes/sandbox-service';

const REPORT = asSystem('report metrics');

/** The sandboxes this instance runs, by status, read from the sandbox service at each scrape. */
export function sandboxMetrics(registry: Registry, sandboxes: SandboxService, runtime: SandboxRuntimeName): void {
  new Gauge({
    name: 'agent_console_sandboxes',
    help: 'Sandboxes this instance runs, by status (STARTING, RUNNING, PAUSED, ERROR, MISSING, as the API shows them) and runtime (process or docker). With several instances each counts its own: sum them for the whole.',
    labelNames: ['status', 'runtime'],
    registers: [registry],
    async collect() {
      for (const [status, count] of await sandboxes.ownByStatus(REPORT)) this.set({ status, runtime }, count);
    },
  });
}
