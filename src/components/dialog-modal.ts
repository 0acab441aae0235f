// Loaded on demand by ./dialog: the modal stack stays out of the pages' first download.
export { Modal as default } from '@mantine/core';
