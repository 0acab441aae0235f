import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import { useConfirmDiscard } from '../../components/use-confirm-discard';
import type { McpConfigResponse } from '../../contract/mcp';
import { testMcpServerMutation } from '../../queries/mcp';
import { serverFeaturesQuery } from '../../queries/server-capabilities';
import { saveMcpConfigMutation } from '../../queries/settings';
import { mcpServerResolver } from './mcp-form';
import {
  EMPTY_MCP_CONFIG,
  entryFor,
  formFieldFor,
  formValuesFor,
  KIND_KEY,
  type McpServerFormValues,
  type McpServerRow,
  type Position,
  withServer,
} from './mcp-model';
import { type FailedSave, McpServerDrawerView } from './mcp-server-drawer-view';

interface Props {
  /** The server being edited, `null` to add one. */
  row: McpServerRow | null;
  config: McpConfigResponse | null;
  onClose: () => void;
}

/** Add or edit one MCP server. Saving writes it at once; a failed save keeps everything typed. */
export function McpServerDrawer({ row, config, onClose }: Props) {
  const { t, i18n } = useLingui();
  const form = useForm<McpServerFormValues>({
    defaultValues: formValuesFor(row),
    resolver: mcpServerResolver(config, row?.id ?? null, i18n),
    // Errors appear on submit, then update as the user types: no layout shift on blur
    // that moves the button someone is about to click.
    mode: 'onSubmit',
  });
  const save = useMutation(saveMcpConfigMutation(useQueryClient()));
  const test = useMutation(testMcpServerMutation());
  const canTest = useQuery(serverFeaturesQuery()).data?.mcpTest === true;
  // Where the entry went in the config that was sent, and that config: a 422 is about those.
  const sentPosition = useRef<Position | null>(null);
  const [sent, setSent] = useState<McpConfigResponse | null>(null);
  // A test result belongs to the entry that was tested; after any edit it no longer applies.
  const [testedEntry, setTestedEntry] = useState<string | null>(null);

  const { submit, problem } = useServerSubmit(form, {
    save: async (current) => {
      const entry = entryFor(current, row);
      sentPosition.current = null;
      setSent(null);
      await save.mutateAsync((fresh) => {
        const next = withServer(fresh ?? EMPTY_MCP_CONFIG, row?.id ?? null, entry);
        sentPosition.current = next.position;
        setSent(next.config);
        return next.config;
      });
      notifications.show({
        color: 'teal',
        title: row ? t`MCP server saved` : t`MCP server added`,
        message: entry.kind === 'stdio' ? entry.name : entry.url,
      });
      onClose();
    },
    serverErrors: {
      locPrefix: ['body', 'mcp_config'],
      // The form is locked while saving, so every row is still where it was when sent.
      fieldFor: (path, { msg }) => {
        const position = sentPosition.current;
        const at = position && `${KIND_KEY[position.kind]}.${position.index}`;
        if (!at || (path !== at && !path.startsWith(`${at}.`))) return undefined;
        const envKeys = form.getValues('env').map((env) => env.key.trim());
        return formFieldFor(path.slice(at.length + 1), msg, envKeys, i18n);
      },
    },
  });
  const failed: FailedSave | null = problem && { problem, sent };

  const { requestClose, confirmation } = useConfirmDiscard(form.formState.isDirty, onClose);

  const runTest = async () => {
    test.reset();
    if (!(await form.trigger())) return;
    const entry = entryFor(form.getValues(), row);
    setTestedEntry(JSON.stringify(entry));
    test.mutate(entry);
  };

  return (
    <>
      <UnsavedChangesGuard when={form.formState.isDirty && !form.formState.isSubmitting} />
      {confirmation}
      <McpServerDrawerView
        form={form}
        row={row}
        failed={failed}
        test={{ entry: testedEntry, pending: test.isPending, result: test.data, error: test.error }}
        onSubmit={submit}
        onTest={canTest ? () => void runTest() : undefined}
        onClose={requestClose}
      />
    </>
  );
}
