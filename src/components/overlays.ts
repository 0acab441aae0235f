// Loaded on demand by ./dialog and ./side-panel, together: the modal stack they share (focus trap,
// scroll lock, portal, transitions) stays out of the pages' first download, in one chunk.
export { Drawer, Modal } from '@mantine/core';
