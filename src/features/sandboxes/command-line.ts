import { joinCommandLine } from '../../components/command-line';
import type { SandboxSpec } from '../../contract/sandboxes';

/** A spec's command as a line; a spec without one runs its image's own (a Docker spec). */
export function commandLine(spec: SandboxSpec): string | undefined {
  if (spec.command && spec.command.length > 0) return joinCommandLine(spec.command);
  return spec.image ? "(the image's own)" : undefined;
}
