import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ServerKind } from '../api/server-capabilities';
import { serverFeaturesQuery, upstreamQuery } from '../queries/server-capabilities';

const KIND_NAME: Record<ServerKind, MessageDescriptor> = {
  'agent-console': msg`Agent Console server`,
  openhands: msg`OpenHands`,
  unknown: msg`API server`,
};

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url);

/**
 * Which server the console talks to, in the header: its kind (from its OpenAPI document) and
 * where it is. Behind our server in upstream mode that is the OpenHands it forwards to.
 */
export function ServerBadge({ baseUrl }: { baseUrl: string }) {
  const { t, i18n } = useLingui();
  const features = useQuery(serverFeaturesQuery()).data;
  // Only the server that served the console can be forwarding for it.
  const upstream = useQuery({ ...upstreamQuery(), enabled: baseUrl === '' }).data;
  const where = upstream ? hostOf(upstream) : baseUrl ? hostOf(baseUrl) : window.location.host;
  if (!features) {
    return (
      <Text size="sm" c="dimmed" visibleFrom="sm" title={t`The API server this console talks to`}>
        {where}
      </Text>
    );
  }
  const kind = i18n._(KIND_NAME[features.kind]);
  const label = t`${kind} at ${where}`;
  const here = window.location.host;
  const title = upstream ? t`The console talks to ${label} through this console's server (${here})` : t`The console talks to ${label}`;
  return (
    // The browser's own tooltip: Mantine's would bring its positioning library into every page's first download.
    <Badge
      variant="light"
      color={features.kind === 'openhands' ? 'grape' : 'gray'}
      tt="none"
      visibleFrom="sm"
      data-testid="server-badge"
      title={title}
    >
      {label}
    </Badge>
  );
}
