import { useLingui } from '@lingui/react/macro';
import { CloseButton, Paper, Text } from '@mantine/core';
import { notifications as notificationsApi, useNotifications } from '@mantine/notifications';
import { type ComponentType, lazy, Suspense, useState } from 'react';

interface ContainerProps {
  position: 'bottom-left';
  containerWidth: number;
}

/**
 * Bottom left, as wide as the navigation: on a wide screen they sit below its links and cover no
 * control (top right they covered Sign out, the page's main button and a drawer's close button).
 */
const PLACE: ContainerProps = { position: 'bottom-left', containerWidth: 224 };

/**
 * Mantine's notifications container, loaded with the first notification: most visits show none.
 * Notifications shown before it arrives wait in the store and appear when it mounts. Should its
 * code fail to load (the server was updated while this tab was open), a plain list stands in.
 */
const Notifications = lazy((): Promise<{ default: ComponentType<ContainerProps> }> =>
  import('./notifications-container').catch(() => ({ default: PlainNotifications })),
);

export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...PLACE} />
    </Suspense>
  );
}

function PlainNotifications() {
  const { t } = useLingui();
  const { notifications } = useNotifications();
  return (
    <div style={{ position: 'fixed', bottom: 16, left: 8, zIndex: 1000, display: 'grid', gap: 8, width: PLACE.containerWidth }}>
      {notifications.map(({ id, title, message }) => (
        <Paper key={id} role="alert" withBorder shadow="md" p="sm" style={{ display: 'flex', gap: 8 }}>
          <div style={{ flex: 1 }}>
            <Text fw={600} size="sm">
              {title}
            </Text>
            <Text size="sm">{message}</Text>
          </div>
          <CloseButton aria-label={t`Dismiss`} onClick={() => id && notificationsApi.hide(id)} />
        </Paper>
      ))}
    </div>
  );
}
