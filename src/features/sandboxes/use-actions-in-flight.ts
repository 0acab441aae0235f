import { useMutationState } from '@tanstack/react-query';
import type { SandboxAction } from '../../api/sandboxes';
import { type SandboxActionVariables, sandboxKeys } from '../../queries/sandboxes';

/** Actions under way, for "Pausing…" badges; straight from the mutation cache, so nothing to keep in sync. */
export function useActionsInFlight(): Map<string, SandboxAction> {
  const pending = useMutationState({
    filters: { mutationKey: sandboxKeys.actions(), status: 'pending' },
    select: (mutation) => mutation.state.variables as SandboxActionVariables,
  });
  return new Map(pending.map(({ id, action }) => [id, action]));
}
