import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { joinCommandLine } from '../../components/command-line';
import type { SandboxSpec } from '../../contract/sandboxes';

/** A spec's command as a line; a spec without one runs its image's own (a Docker spec). */
export function commandLine(i18n: I18n, spec: SandboxSpec): string | undefined {
  if (spec.command && spec.command.length > 0) return joinCommandLine(spec.command);
  return spec.image ? i18n._(msg`(the image's own)`) : undefined;
}
