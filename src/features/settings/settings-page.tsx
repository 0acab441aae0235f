import { useLingui } from '@lingui/react/macro';
import { Skeleton, Stack } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { OPTION_KINDS } from '../../contract/options';
import { optionsQuery } from '../../queries/options';
import { type ComponentType, lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'react-router';
import { describeError } from '../../api/errors';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { QueryContent } from '../../components/query-content';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import type { SettingsResponse, SettingsUpdate } from '../../contract/settings';
import { testLlmMutation } from '../../queries/llm';
import { serverFeaturesQuery } from '../../queries/server-capabilities';
import { saveSettingsMutation, settingsQuery } from '../../queries/settings';
import {
  llmTestRequest,
  savedFormValues,
  SETTINGS_FORM_FIELDS,
  type SettingsFormValues,
  settingsResolver,
  toFormValues,
} from './settings-form';
import { withCatalog } from '../../i18n/catalogs';
import { SettingsFormView } from './settings-form-view';
import type { SettingsChoices } from './settings-sections';

/** What the router loads: the page, and the catalog of its strings. */
export { SettingsPage as Page };
export { loadSettingsCatalog as catalog } from './catalog';

/** Its code comes once the page has rendered, outside the page's first load; should it not come, the field stays without a test. */
const SearchKeyTest = lazy((): Promise<{ default: ComponentType<{ keyStored: boolean }> }> =>
  withCatalog(import('./deferred/search-key-test')).then(
    (module) => ({ default: module.SearchKeyTest }),
    () => ({ default: () => null }),
  ),
);

export function SettingsPage() {
  const { t } = useLingui();
  const stored = useQuery(settingsQuery());
  return (
    <QueryContent query={stored} what={t`settings`} skeleton={<SettingsSkeleton />}>
      {(data) => <SettingsForm settings={data} />}
    </QueryContent>
  );
}

function SettingsSkeleton() {
  const { t } = useLingui();
  return (
    <Stack role="status" aria-busy="true" aria-label={t`Loading settings`}>
      {[180, 240, 180].map((height, i) => (
        <Skeleton key={i} height={height} radius="md" />
      ))}
    </Stack>
  );
}

/** The server's lists for Settings' choices, as they arrive (none from a server that has no such list). */
function useSettingsChoices(): SettingsChoices {
  const results = useQueries({ queries: OPTION_KINDS.map((kind) => optionsQuery(kind)) });
  return Object.fromEntries(OPTION_KINDS.flatMap((kind, index) => (results[index]?.data ? [[kind, results[index].data]] : [])));
}

function SettingsForm({ settings }: { settings: SettingsResponse | null }) {
  const serverValues = useMemo(() => toFormValues(settings), [settings]);
  const form = useForm<SettingsFormValues, unknown, SettingsUpdate>({
    defaultValues: serverValues,
    // A background refetch updates the fields the user has not touched and keeps the rest.
    values: serverValues,
    resetOptions: { keepDirtyValues: true },
    resolver: settingsResolver(serverValues),
    // Errors appear on submit, then update as the user types: no layout shift on blur
    // that moves the button someone is about to click.
    mode: 'onSubmit',
  });
  const { t } = useLingui();
  const save = useMutation(saveSettingsMutation(useQueryClient()));
  const { isDirty, isSubmitting } = form.formState;
  // `reset` would otherwise take `resetOptions` too and keep edited fields dirty.
  const resetTo = (values: SettingsFormValues) => form.reset(values, { keepDirtyValues: false });

  const { submit, problem, dismissProblem } = useServerSubmit(form, {
    // The resolver submits the changed fields, as the POST's body.
    save: async (changes) => {
      const outcome = await save.mutateAsync(changes);
      if (outcome.reloaded) {
        resetTo(toFormValues(outcome.settings));
        notifications.show({ color: 'teal', title: t`Settings saved`, message: t`New conversations use them from now on.` });
      } else {
        resetTo(savedFormValues(form.getValues()));
        const why = describeError(outcome.error);
        notifications.show({
          color: 'yellow',
          title: t`Settings saved`,
          message: t`They could not be read back (${why}); reload to see them.`,
        });
      }
    },
    serverErrors: { isField: (path) => SETTINGS_FORM_FIELDS.has(path) },
  });

  // A link to a section (`/settings#llm`) opens the page at it.
  const { hash } = useLocation();
  useEffect(() => {
    if (/^#[a-z]+$/.test(hash)) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);

  const choices = useSettingsChoices();
  const features = useQuery(serverFeaturesQuery()).data;
  const llmTest = useMutation(testLlmMutation());
  // A result belongs to the fields that were tested: the view shows it while they are unchanged.
  const [testedLlm, setTestedLlm] = useState<string | null>(null);
  const testLlm = () => {
    const request = llmTestRequest(form.getValues());
    llmTest.reset();
    setTestedLlm(JSON.stringify(request));
    llmTest.mutate(request);
  };

  useHotkeys([['mod+S', () => isDirty && !isSubmitting && submit()]], []);

  return (
    <>
      <UnsavedChangesGuard when={isDirty && !isSubmitting} />
      <SettingsFormView
        form={form}
        stored={settings}
        problem={problem}
        onSubmit={submit}
        onDiscard={() => {
          resetTo(serverValues);
          dismissProblem();
        }}
        onDismissProblem={dismissProblem}
        llmTest={{ request: testedLlm, pending: llmTest.isPending, result: llmTest.data, error: llmTest.error }}
        onTestLlm={testLlm}
        choices={choices}
        unstorable={features?.sandboxApiKeyStored === false ? ['sandbox_api_key'] : []}
        notUsed={features?.settingsNotUsed}
        inherited={settings?.inherited}
        searchKeyTest={
          <Suspense>
            <SearchKeyTest keyStored={settings?.search_api_key_set ?? false} />
          </Suspense>
        }
      />
    </>
  );
}
