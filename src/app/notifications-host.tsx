import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

/**
 * Mantine's notifications container, loaded with the first notification: most visits show none.
 * Notifications shown before it arrives wait in the store and appear when it mounts.
 */
const Notifications = lazy(() => import('./notifications-container'));

export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" />
    </Suspense>
  );
}
