import { queryOptions } from '@tanstack/react-query';
import { readServerFeatures, readUpstream, type ServerFeatures } from '../api/server-capabilities';

export const serverCapabilityKeys = {
  all: ['server-capabilities'] as const,
  features: () => [...serverCapabilityKeys.all, 'features'] as const,
  upstream: () => [...serverCapabilityKeys.all, 'upstream'] as const,
};

/** What the server offers, read once: a server does not change while signed in. */
export const serverFeaturesQuery = () =>
  queryOptions({
    queryKey: serverCapabilityKeys.features(),
    queryFn: ({ signal }) => readServerFeatures(signal),
    staleTime: Infinity,
    // A failed read (network, 5xx) is not cached: tried a few times, then again on the next mount.
    retry: 3,
  });

/** Whether the server changes a secret's value in place. */
export const secretValueUpdateQuery = () =>
  queryOptions({ ...serverFeaturesQuery(), select: (features: ServerFeatures) => features.secretValueUpdate });

/** The OpenHands the console's own server forwards to, if it does (upstream mode). */
export const upstreamQuery = () =>
  queryOptions({ queryKey: serverCapabilityKeys.upstream(), queryFn: ({ signal }) => readUpstream(signal), staleTime: Infinity });
