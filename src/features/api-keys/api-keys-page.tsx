import { Alert, Button, Code, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, isApiError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyValue } from '../../components/copy-value';
import { Dialog } from '../../components/dialog';
import { SectionHeader } from '../../components/section-header';
import { QueryContent } from '../../components/query-content';
import type { ApiKey, CreatedApiKey } from '../../contract/team';
import { apiKeysQuery, createApiKeyMutation, deleteApiKeyMutation } from '../../queries/team';
import { ApiKeysView } from './api-keys-view';
import { PasswordSection } from './password-section';
import { meQuery } from '../../queries/me';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_DAYS: Record<string, number | null> = { never: null, '30': 30, '90': 90, '365': 365 };

/** The caller's API keys: made here (shown once), used by scripts as `X-Session-API-Key` or `Authorization: Bearer`. */
export function ApiKeysPage() {
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeysQuery());
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [now] = useState(Date.now);
  const remove = useMutation(deleteApiKeyMutation(queryClient));
  const me = useQuery(meQuery(queryClient)).data;
  return (
    <Stack>
      <SectionHeader
        title="API keys"
        description="For scripts: each key acts as you, with your role, until it expires or is deleted."
        actions={
          <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
            Create an API key
          </Button>
        }
      />
      <QueryContent query={keys} what="API keys">
        {(list) => <ApiKeysView keys={list} now={now} onCreate={() => setCreating(true)} onDelete={setDeleting} />}
      </QueryContent>
      {me?.has_password && <PasswordSection />}
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name || 'this key'}?`}
          confirmLabel="Delete key"
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        >
          Scripts that use it are refused from the next request.
        </ConfirmDialog>
      )}
    </Stack>
  );
}

function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const create = useMutation(createApiKeyMutation(queryClient));
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('90');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const nameError = isApiError(create.error) ? create.error.validation.find((entry) => entry.loc.includes('name'))?.msg : undefined;
  const days = EXPIRY_DAYS[expiry] ?? null;
  return (
    <Dialog opened onClose={onClose} title={created ? 'Your new API key' : 'Create an API key'}>
      {created ? (
        <Stack>
          <Text size="sm">
            Copy it now: it is shown only this once. Send it as <Code>X-Session-API-Key</Code> or <Code>Authorization: Bearer</Code>.
          </Text>
          <CopyValue value={created.key} label="the new API key" maxWidth={360} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const expires_at = days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString();
            create.mutate({ name: name.trim() || null, expires_at }, { onSuccess: setCreated });
          }}
        >
          <Stack>
            <TextInput
              label="Name"
              description="What uses it, to tell keys apart"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={nameError}
              data-autofocus
            />
            <NativeSelect
              label="Expires"
              value={expiry}
              onChange={(event) => setExpiry(event.currentTarget.value)}
              data={[
                { value: '30', label: 'In 30 days' },
                { value: '90', label: 'In 90 days' },
                { value: '365', label: 'In a year' },
                { value: 'never', label: 'Never' },
              ]}
            />
            {create.error && !nameError && <Alert color="red">{describeError(create.error)}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Dialog>
  );
}
