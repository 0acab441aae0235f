import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { SecretDraft } from '../../../components/form/secret-field';
import type { SearchKeyTestResult } from '../../../contract/search-key-test';
import { testSearchKeyMutation } from '../../../queries/search';
import { CredentialTestOutcome, type CredentialVerdict } from './credential-test-outcome';
import type { SettingsFormValues } from '../settings-form';

/*
 * "Test key" under the search API key, and what Tavily said. Loaded once the Settings page has
 * rendered (settings-page.tsx): the first load stays within its budget.
 */

/**
 * Tests the key as typed (or the stored one, when the field is empty) through the server. A result
 * is shown only while the field still holds what was tested.
 */
export function SearchKeyTest({ keyStored }: { keyStored: boolean }) {
  // The field's draft (secret-field.tsx): what is typed, and whether the stored key is to be cleared.
  const draft: SecretDraft = useWatch<SettingsFormValues, 'search_api_key'>({ name: 'search_api_key' }) ?? { value: '', clear: false };
  const typed = draft.value.trim();
  const test = useMutation(testSearchKeyMutation());
  const [tested, setTested] = useState<string | null>(null);
  const canTest = typed !== '' || (keyStored && !draft.clear);
  const run = () => {
    test.reset();
    setTested(typed);
    test.mutate({ api_key: typed === '' ? null : typed });
  };
  return (
    <Stack gap="sm">
      <Group>
        <Button
          type="button"
          variant="default"
          leftSection={<IconPlugConnected size={16} />}
          onClick={run}
          loading={test.isPending}
          disabled={!canTest}
        >
          <Trans>Test key</Trans>
        </Button>
        <Text size="xs" c="dimmed">
          <Trans>
            Asks Tavily, through this server, whether it takes the key above (the stored key when the field is empty). Nothing is saved, no
            search is spent.
          </Trans>
        </Text>
      </Group>
      {tested === typed && <Outcome pending={test.isPending} result={test.data} error={test.error} />}
    </Stack>
  );
}

function Outcome({ pending, result, error }: { pending: boolean; result: SearchKeyTestResult | undefined; error: unknown }) {
  const { t } = useLingui();
  let verdict: CredentialVerdict | undefined;
  if (result?.ok) {
    verdict = {
      ok: true,
      title: t`Tavily accepted the key`,
      body: (
        <Text size="sm">
          <Trans>The agent can search the web in conversations started from now on.</Trans>
        </Text>
      ),
    };
  } else if (result) {
    verdict = { ok: false, title: t`The key did not work`, reason: result.error };
  }
  return <CredentialTestOutcome pending={pending} waiting={t`Asking Tavily…`} error={error} verdict={verdict} />;
}
export { loadCatalog as catalog } from './catalog';
