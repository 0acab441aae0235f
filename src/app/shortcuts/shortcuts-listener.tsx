import { useShortcuts } from './use-shortcuts';

/** The shortcuts' key listener as a part of its own: loaded after the page, which needs none of it to show. */
export default function ShortcutsListener({ enabled, onHelp }: { enabled: boolean; onHelp: () => void }) {
  useShortcuts(enabled, onHelp);
  return null;
}
