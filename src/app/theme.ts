import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/** The names of the × that closes a dialog or drawer, and of the one that dismisses a notification, in the console's language. */
export interface CloseLabels {
  closeDialog: string;
  dismiss: string;
}

export const themeWith = (labels: CloseLabels) =>
  createTheme({
    primaryColor: 'blue',
    // Shade 8 keeps white button text and links above WCAG AA contrast (shade 6 does not).
    primaryShade: { light: 8, dark: 8 },
    defaultRadius: 'md',
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    // The × of dialogs, drawers and notifications has no name of its own. (Plain objects, not
    // Modal.extend(), so the theme does not pull the components into every page's first download.)
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': labels.closeDialog } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': labels.closeDialog } } },
      // Under a title, Mantine greys the message to 3.3:1 (gray 6 on white); "dimmed" keeps AA.
      Notification: {
        defaultProps: { closeButtonProps: { 'aria-label': labels.dismiss } },
        styles: { description: { color: 'var(--mantine-color-dimmed)' } },
      },
    },
  });

/**
 * Colours that keep text at WCAG AA (4.5:1) where Mantine's do not:
 * - "dimmed" grey is too faint on white (and on the dark scheme's background, 4.0:1); one step
 *   darker (lighter in the dark scheme) passes;
 * - the hover shade of light blue (blue 2) leaves blue text at 4.0:1 (the active navigation link
 *   under the pointer); a shade between blue 1 and 2 passes and still shows the hover;
 * - the text of light badges and alerts in teal, yellow, orange, red and green is 2.5–4.3:1 on
 *   their background (a "Paused" badge is 2.7:1); darker text passes on background and hover.
 */
const LIGHT_TEXT: Record<string, string> = {
  teal: '#077051',
  yellow: '#a05300',
  orange: '#aa380c',
  red: '#ad2424',
  green: '#237032',
};

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    '--mantine-color-blue-light-hover': '#c3e5ff',
    ...Object.fromEntries(Object.entries(LIGHT_TEXT).map(([color, text]) => [`--mantine-color-${color}-light-color`, text])),
  },
  dark: { '--mantine-color-dimmed': t.colors.dark[1] ?? '#b8b8b8' },
});
