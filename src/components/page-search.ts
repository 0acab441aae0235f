/**
 * Marks a page's search field (or, without one, the filter that narrows its list): the `/`
 * shortcut focuses it. Spread on the input: `<TextInput {...PAGE_SEARCH} … />`.
 */
export const PAGE_SEARCH = { 'data-page-search': true } as const;

export const PAGE_SEARCH_SELECTOR = '[data-page-search]';
