// Loaded on demand by ./notifications-host.
export { Notifications as default } from '@mantine/notifications';
