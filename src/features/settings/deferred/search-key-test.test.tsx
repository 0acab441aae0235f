import { screen } from '@testing-library/react';
import { FormProvider, useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { SecretField } from '../../../components/form/secret-field';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { renderWithQueries } from '../../../testing/render';
import { SearchKeyTest } from './search-key-test';
import { type SettingsFormValues, toFormValues } from '../settings-form';

/** The search key's field and its test, in a form as the Settings page has them. */
function Harness({ keyStored }: { keyStored: boolean }) {
  const form = useForm<SettingsFormValues>({ defaultValues: toFormValues(null) });
  return (
    <FormProvider {...form}>
      <SecretField<SettingsFormValues> name="search_api_key" label="Search API key" isSet={keyStored} />
      <SearchKeyTest keyStored={keyStored} />
    </FormProvider>
  );
}

describe('SearchKeyTest', () => {
  it('tests the stored key when none is typed, and says Tavily accepted it', async () => {
    const api = fakeApi({ 'POST /api/search/test': () => json(200, { ok: true }) });
    const { user } = renderWithQueries(<Harness keyStored />, testQueryClient());
    await user.click(screen.getByRole('button', { name: 'Test key' }));
    expect(await screen.findByText('Tavily accepted the key')).toBeVisible();
    expect(api.requests).toEqual([{ method: 'POST', url: '/api/search/test', body: { api_key: null } }]);
  });

  it('tests the typed key, shows the refusal in words until the key is edited, and cannot test without a key', async () => {
    const refusal = 'Tavily refused the search API key (HTTP 401: Unauthorized: missing or invalid API key.).';
    const api = fakeApi({ 'POST /api/search/test': () => json(200, { ok: false, error: refusal }) });
    const { user } = renderWithQueries(<Harness keyStored={false} />, testQueryClient());
    expect(screen.getByRole('button', { name: 'Test key' })).toBeDisabled();

    await user.type(screen.getByLabelText('Search API key'), 'tvly-typed');
    await user.click(screen.getByRole('button', { name: 'Test key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(api.requests.map((request) => request.body)).toEqual([{ api_key: 'tvly-typed' }]);

    // Another key: the result was about the one before.
    await user.type(screen.getByLabelText('Search API key'), '2');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a server without the test cannot test keys', async () => {
    fakeApi({});
    const { user } = renderWithQueries(<Harness keyStored />, testQueryClient());
    await user.click(screen.getByRole('button', { name: 'Test key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This server cannot test search keys');
  });
});
