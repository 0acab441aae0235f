import { useMediaQuery } from '@mantine/hooks';

/**
 * Below this width (1200 px) a list's columns no longer fit beside the navigation, and a table
 * would hide its status and actions off to the side: each item becomes a card instead.
 */
const NARROW = '(max-width: 74.99em)';

export function useCardLayout(): 'table' | 'cards' {
  // Read at once, so a phone never renders the table first.
  return useMediaQuery(NARROW, false, { getInitialValueInEffect: false }) ? 'cards' : 'table';
}
