// Loaded on demand by ./deferred-tooltip: the positioning library stays out of the pages' first download.
export { Tooltip as default } from '@mantine/core';
