import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * Node's own metrics of this process (CPU, memory, event loop lag, handles, GC: prom-client's
 * defaults), made once per process: what they watch (the event loop's delay, GC) is started once,
 * however many apps a process builds (the tests build many).
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
