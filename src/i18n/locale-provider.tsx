import { i18n } from '@lingui/core';
import { LinguiContext } from '@lingui/react';
import { type ReactNode, useEffect, useState } from 'react';

const contextOf = (locale: string) => ({ locale, i18n, _: i18n.t.bind(i18n) });

/**
 * Lingui's context for the console, renewed when the language changes, not when a catalog comes.
 * Lingui's own provider renews it at each catalog loaded, and every component with strings
 * renders again, the whole page with it; but a catalog comes before what shows its strings
 * (`withCatalog`), and strings are looked up as they render.
 */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const [context, setContext] = useState(() => contextOf(i18n.locale));
  useEffect(() => {
    const follow = () => setContext((shown) => (shown.locale === i18n.locale ? shown : contextOf(i18n.locale)));
    // A switch between the first render and this effect is followed too.
    follow();
    return i18n.on('change', follow);
  }, []);
  return <LinguiContext.Provider value={context}>{children}</LinguiContext.Provider>;
}
