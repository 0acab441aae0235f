import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

/**
 * The search box: what is typed shows at once and reaches the filters (`search`) once typing
 * pauses; the filters' title changing otherwise (Back, Clear filters) shows in the box.
 */
export function useTitleSearch(title: string, search: (title: string) => void) {
  const [input, setInput] = useState(title);
  const searchTitle = useDebouncedCallback((typed: string) => search(typed.trim()), 300);
  const [shownTitle, setShownTitle] = useState(title);
  if (title !== shownTitle) {
    setShownTitle(title);
    if (input.trim() !== title) setInput(title);
  }
  return {
    input,
    onInput: (typed: string) => {
      setInput(typed);
      searchTitle(typed);
    },
    // Written before whatever comes next (a link, a shortcut), so it cannot land after it and bring the user back.
    onLeave: () => searchTitle.flush(),
  };
}
