import { queryOptions } from '@tanstack/react-query';
import { canUpdateSecretValue } from '../api/server-capabilities';

export const serverCapabilityKeys = {
  all: ['server-capabilities'] as const,
  secretValueUpdate: () => [...serverCapabilityKeys.all, 'secret-value-update'] as const,
};

/** Whether the server changes a secret's value in place; a server does not change while signed in. */
export const secretValueUpdateQuery = () =>
  queryOptions({
    queryKey: serverCapabilityKeys.secretValueUpdate(),
    queryFn: ({ signal }) => canUpdateSecretValue(signal),
    staleTime: Infinity,
  });
