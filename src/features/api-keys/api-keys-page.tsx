import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SectionHeader } from '../../components/section-header';
import { QueryContent } from '../../components/query-content';
import type { ApiKey } from '../../contract/team';
import { apiKeysQuery, deleteApiKeyMutation } from '../../queries/team';
import { ApiKeysView } from './api-keys-view';
import { CreateKeyDialog } from './create-key-dialog';
import { PasswordSection } from './password-section';
import { meQuery } from '../../queries/me';

/** What the router loads: the page, and the catalog of its strings. */
export { ApiKeysPage as Page };
export { loadApiKeysCatalog as catalog } from './catalog';

/** The caller's API keys: made here (shown once), used by scripts as `X-Session-API-Key` or `Authorization: Bearer`. */
export function ApiKeysPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeysQuery());
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [now] = useState(Date.now);
  const remove = useMutation(deleteApiKeyMutation(queryClient));
  const me = useQuery(meQuery(queryClient)).data;
  const deletingName = deleting?.name;
  return (
    <Stack>
      <SectionHeader
        title={t`API keys`}
        description={t`For scripts: each key acts as you, with your role, until it expires or is deleted.`}
        actions={
          <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
            <Trans>Create an API key</Trans>
          </Button>
        }
      />
      <QueryContent query={keys} what={t`API keys`}>
        {(list) => <ApiKeysView keys={list} now={now} onCreate={() => setCreating(true)} onDelete={setDeleting} />}
      </QueryContent>
      {me?.has_password && <PasswordSection />}
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} />}
      {deleting && (
        <ConfirmDialog
          title={deletingName ? t`Delete ${deletingName}?` : t`Delete this key?`}
          confirmLabel={t`Delete key`}
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        >
          <Trans>Scripts that use it are refused from the next request.</Trans>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
