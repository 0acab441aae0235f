import { useMediaQuery } from '@mantine/hooks';

/**
 * Cards instead of a table below `maxWidth` (an em width): narrower, a list's columns no longer fit
 * beside the navigation, and a table would hide its statuses and actions off to the side. By
 * default 1200 px, where the Sandboxes table's columns stop fitting.
 */
export function useCardLayout(maxWidth = '74.99em'): 'table' | 'cards' {
  // Read at once, so a phone never renders the table first.
  return useMediaQuery(`(max-width: ${maxWidth})`, false, { getInitialValueInEffect: false }) ? 'cards' : 'table';
}
