import { i18n } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LocaleProvider } from './locale-provider';

const GREETING = 'locale-provider-test.greeting';

/** A component with a string, and how many times it rendered. */
function counted() {
  const renders = { count: 0 };
  function Greeting() {
    const { _ } = useLingui();
    renders.count += 1;
    return <p>{_(GREETING)}</p>;
  }
  return { renders, Greeting };
}

describe('the console’s strings', () => {
  afterEach(() => act(() => i18n.activate('en')));

  it('render nothing again when a catalog comes, only when the language changes', async () => {
    i18n.load('en', { [GREETING]: 'Hello' });
    const { renders, Greeting } = counted();
    render(
      <LocaleProvider>
        <Greeting />
      </LocaleProvider>,
    );
    expect(screen.getByText('Hello')).toBeInTheDocument();
    const shown = renders.count;

    // A page's catalog, loaded before that page renders: what shows already has its strings.
    act(() => i18n.load('en', { 'locale-provider-test.other': 'Other' }));
    expect(renders.count).toBe(shown);

    act(() => {
      i18n.load('fr', { [GREETING]: 'Bonjour' });
      i18n.activate('fr');
    });
    expect(await screen.findByText('Bonjour')).toBeInTheDocument();
    expect(renders.count).toBeGreaterThan(shown);
  });
});
