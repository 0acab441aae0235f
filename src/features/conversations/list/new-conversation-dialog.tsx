import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSignedInUser } from '../shared/use-signed-in-user';
import { FormProvider, useController, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Dialog } from '../../../components/dialog';
import { SelectField, TextField } from '../../../components/form/fields';
import { SaveProblemAlert } from '../../../components/form/save-problem-alert';
import { useServerSubmit } from '../../../components/form/use-server-submit';
import { useConfirmDiscard } from '../../../components/use-confirm-discard';
import type { StartRequestInput, StartTask } from '../../../contract/conversations';
import { DEMO_MODEL } from '../../../contract/demo-model';
import { isProvider, PROVIDER_NAMES } from '../../../contract/secrets';
import { startConversationMutation } from '../../../queries/conversations';
import { connectedProvidersQuery } from '../../../queries/git-providers';
import { sandboxSpecsQuery } from '../../../queries/sandbox-specs';
import { sandboxesQuery } from '../../../queries/sandboxes';
import { settingsQuery } from '../../../queries/settings';
import { startingNoticeId } from './starting-notice';

interface NewConversationValues {
  message: string;
  repository: string;
  branch: string;
  provider: string;
  model: string;
  /** `new:<spec id>` or `existing:<sandbox id>`. */
  sandbox: string;
}

const FIELDS: Record<string, keyof NewConversationValues> = {
  initial_message: 'message',
  selected_repository: 'repository',
  selected_branch: 'branch',
  git_provider: 'provider',
  llm_model: 'model',
  sandbox_id: 'sandbox',
  sandbox_spec_id: 'sandbox',
};

/** The start request the form's values make: empty fields are left to the server's defaults. */
export function toStartRequest(values: NewConversationValues): StartRequestInput {
  const text = values.message.trim();
  const [kind, id] = values.sandbox.split(/:(.*)/s) as [string, string | undefined];
  return {
    ...(text ? { initial_message: { role: 'user', content: [{ type: 'text', text }], run: true } } : {}),
    ...(values.repository.trim() ? { selected_repository: values.repository.trim() } : {}),
    ...(values.branch.trim() ? { selected_branch: values.branch.trim() } : {}),
    ...(isProvider(values.provider) ? { git_provider: values.provider } : {}),
    ...(values.model.trim() ? { llm_model: values.model.trim() } : {}),
    ...(kind === 'existing' && id ? { sandbox_id: id } : {}),
    ...(kind === 'new' && id ? { sandbox_spec_id: id } : {}),
    trigger: 'gui',
  };
}

function MessageField() {
  const { t } = useLingui();
  const { field, fieldState } = useController<NewConversationValues, 'message'>({ name: 'message' });
  return (
    <Textarea
      {...field}
      label={t`What should the agent do?`}
      placeholder={t`Fix the failing test in utils and open a pull request`}
      autosize
      minRows={3}
      error={fieldState.error?.message}
      data-autofocus
    />
  );
}

/** Without a model in Settings or in the form, the agent has nothing to think with: how to get one. */
export function NoModelNotice({ onUseDemo }: { onUseDemo: () => void }) {
  const { t } = useLingui();
  return (
    <Alert color="yellow" variant="light" title={t`No LLM is set up`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          <Trans>
            Set the model and its key in{' '}
            <Anchor component={Link} to="/settings#llm" size="sm" c="inherit" underline="always" fw={600}>
              Settings › LLM
            </Anchor>
            , name one below, or try the demo model: a scripted session that needs no LLM and no key.
          </Trans>
        </Text>
        <Button size="xs" variant="light" onClick={onUseDemo}>
          <Trans>Use the demo model</Trans>
        </Button>
      </Stack>
    </Alert>
  );
}

/** Starts a conversation; the list shows its start step by step. A refused start keeps the form. */
export function NewConversationDialog({ onClose, onStarted }: { onClose: () => void; onStarted: (task: StartTask) => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const start = useMutation(startConversationMutation(queryClient));
  const settings = useQuery(settingsQuery());
  const providers = useQuery(connectedProvidersQuery());
  const specs = useQuery(sandboxSpecsQuery());
  const sandboxes = useQuery(sandboxesQuery({}, false));
  // Only one's own sandboxes take a conversation: another user's holds their secrets (an admin sees everyone's).
  const signedInUserId = useSignedInUser().userId;
  const defaultSpec = specs.data?.items[0]?.id ?? '';
  const form = useForm<NewConversationValues>({
    defaultValues: { message: '', repository: '', branch: '', provider: '', model: '', sandbox: '' },
  });

  const model = useWatch({ control: form.control, name: 'model' }).trim();
  const noModelInSettings = settings.isSuccess && !settings.data?.llm_model;
  const useDemo = () => form.setValue('model', DEMO_MODEL, { shouldDirty: true, shouldValidate: true });

  const connected = Object.keys(providers.data ?? {}).filter(isProvider);
  const sandboxOptions = [
    ...(specs.data?.items ?? []).map(({ id: spec }) => ({ value: `new:${spec}`, label: t`New sandbox from ${spec}` })),
    ...(sandboxes.data?.items ?? [])
      .filter((sandbox) => !signedInUserId || sandbox.created_by_user_id === signedInUserId)
      .flatMap((sandbox) => {
        const id = sandbox.id.slice(0, 8);
        const label = sandbox.status === 'RUNNING' ? t`${id} (running)` : sandbox.status === 'PAUSED' ? t`${id} (paused)` : null;
        return label === null ? [] : [{ value: `existing:${sandbox.id}`, label }];
      }),
  ];
  const onlyProvider = connected.length === 1 ? PROVIDER_NAMES[connected[0]!] : undefined;

  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => {
      const task = await start.mutateAsync(toStartRequest({ ...values, sandbox: values.sandbox || `new:${defaultSpec}` }));
      notifications.show({
        id: startingNoticeId(task.id),
        color: 'teal',
        title: t`Conversation starting`,
        message: t`It opens once it is ready.`,
      });
      onStarted(task);
    },
    serverErrors: {
      fieldFor: (path) => FIELDS[path.split('.', 1)[0] ?? ''],
      statusField: { 403: 'sandbox', 404: 'sandbox', 409: 'sandbox' },
      verdict: t`Not started`,
    },
  });
  const { requestClose, confirmation } = useConfirmDiscard(form.formState.isDirty, onClose);

  return (
    <Dialog opened onClose={requestClose} title={t`New conversation`} size="lg">
      {confirmation}
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate>
          <Stack>
            {problem && <SaveProblemAlert problem={problem} />}
            {noModelInSettings && !model && <NoModelNotice onUseDemo={useDemo} />}
            <MessageField />
            <Group grow align="flex-start">
              <TextField<NewConversationValues> name="repository" label={t`Repository`} placeholder="owner/repo" />
              <TextField<NewConversationValues> name="branch" label={t`Branch`} placeholder={t`The default branch`} />
            </Group>
            <Group grow align="flex-start">
              <SelectField<NewConversationValues>
                name="provider"
                label={t`Git provider`}
                placeholder={onlyProvider === undefined ? t`Choose` : t`${onlyProvider} (the only one connected)`}
                options={connected.map((provider) => ({ value: provider, label: PROVIDER_NAMES[provider] }))}
              />
              <TextField<NewConversationValues>
                name="model"
                label={t`LLM model`}
                placeholder={settings.data?.llm_model ?? t`The model in Settings`}
                description={model === DEMO_MODEL ? t`The demo model: a scripted session, no LLM and no key` : undefined}
              />
            </Group>
            <SandboxField options={sandboxOptions} />
            <Group justify="flex-end">
              <Button variant="default" onClick={requestClose}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                <Trans>Start</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Dialog>
  );
}

function SandboxField({ options }: { options: { value: string; label: string }[] }) {
  const { t } = useLingui();
  const { field, fieldState } = useController<NewConversationValues, 'sandbox'>({ name: 'sandbox' });
  return (
    <NativeSelect
      {...field}
      label={t`Sandbox`}
      description={t`A new sandbox, or one that runs or is paused (a paused one is resumed)`}
      data={options}
      error={fieldState.error?.message}
    />
  );
}
