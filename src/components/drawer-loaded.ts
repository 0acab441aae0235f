// Loaded on demand by ./side-panel: the drawer stack stays out of the pages' first download.
export { Drawer as default } from '@mantine/core';
