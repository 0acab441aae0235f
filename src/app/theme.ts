import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 keeps white button text and links above WCAG AA contrast (shade 6 does not).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

/** Mantine's "dimmed" grey is too faint for AA on white; one step darker passes. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057' },
  dark: {},
});
