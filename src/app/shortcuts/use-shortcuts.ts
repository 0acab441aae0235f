import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PAGE_SEARCH_SELECTOR } from '../../components/page-search';

/** The shortcuts' table and matcher, fetched once the layout has rendered: no page needs them to show. */
const loadShortcuts = () => import('./shortcuts');

/** Listens for the shortcuts on the whole page while `enabled`; `?` calls `onHelp`. */
export function useShortcuts(enabled: boolean, onHelp: () => void) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!enabled) return;
    let listening: ((event: KeyboardEvent) => void) | undefined;
    let stopped = false;
    void loadShortcuts().then(({ ignoredPress, shortcutMatcher }) => {
      if (stopped) return;
      const match = shortcutMatcher();
      listening = (event: KeyboardEvent) => {
        if (event.defaultPrevented || ignoredPress(event)) return;
        const shortcut = match(event.key, event.timeStamp);
        if (!shortcut) return;
        const { action } = shortcut;
        if (action.kind === 'search') {
          const search = document.querySelector<HTMLElement>(PAGE_SEARCH_SELECTOR);
          if (!search) return;
          search.focus();
        } else if (action.kind === 'go') {
          void navigate(action.to);
        } else {
          onHelp();
        }
        // `/` would otherwise be typed into the search it just focused.
        event.preventDefault();
      };
      document.addEventListener('keydown', listening);
    });
    return () => {
      stopped = true;
      if (listening) document.removeEventListener('keydown', listening);
    };
  }, [enabled, navigate, onHelp]);
}
