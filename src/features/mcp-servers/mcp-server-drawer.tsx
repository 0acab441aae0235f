import { Alert, Button, Group, Input, SegmentedControl, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlugConnected } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { applyServerErrors, type SaveProblem } from '../../components/form/apply-server-errors';
import { NumberField, TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { SecretField } from '../../components/form/secret-field';
import { SidePanel } from '../../components/side-panel';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import { useConfirmDiscard } from '../../components/use-confirm-discard';
import { MCP_KINDS, type McpConfigResponse, type McpKind } from '../../contract/mcp';
import { testMcpServerMutation } from '../../queries/mcp';
import { saveMcpConfigMutation } from '../../queries/settings';
import { ArgsEditor } from './args-editor';
import { EnvEditor } from './env-editor';
import { mcpServerResolver } from './mcp-form';
import {
  describeLoc,
  dropsStoredKey,
  EMPTY_MCP_CONFIG,
  entryFor,
  KIND_KEY,
  formFieldFor,
  formValuesFor,
  KIND_LABEL,
  type McpServerFormValues,
  type McpServerRow,
  type Position,
  storedKeyApplies,
  withServer,
} from './mcp-model';
import { TestResult } from './test-result';

const KIND_OPTIONS = MCP_KINDS.map((kind) => ({ value: kind, label: KIND_LABEL[kind] }));

interface Props {
  /** The server being edited, `null` to add one. */
  row: McpServerRow | null;
  config: McpConfigResponse | null;
  onClose: () => void;
}

/** A failed save; entries about other servers are described against the config that was sent. */
interface FailedSave {
  problem: SaveProblem;
  sent: McpConfigResponse | null;
}

/** Add or edit one MCP server. Saving writes it at once; a failed save keeps everything typed. */
export function McpServerDrawer({ row, config, onClose }: Props) {
  const form = useForm<McpServerFormValues>({
    defaultValues: formValuesFor(row),
    resolver: mcpServerResolver(config, row?.id ?? null),
    // Errors appear on submit, then update as the user types: no layout shift on blur
    // that moves the button someone is about to click.
    mode: 'onSubmit',
  });
  const save = useMutation(saveMcpConfigMutation(useQueryClient()));
  const test = useMutation(testMcpServerMutation());
  const [failed, setFailed] = useState<FailedSave | null>(null);
  // A test result belongs to the entry that was tested; after any edit it no longer applies.
  const [testedEntry, setTestedEntry] = useState<string | null>(null);
  const values = useWatch({ control: form.control }) as McpServerFormValues;
  const kind = values.kind;
  const testApplies = testedEntry === JSON.stringify(entryFor(values, row));

  const submit = form.handleSubmit(async (current) => {
    setFailed(null);
    const entry = entryFor(current, row);
    let sent: { config: McpConfigResponse; position: Position } | undefined;
    try {
      await save.mutateAsync((fresh) => {
        sent = withServer(fresh ?? EMPTY_MCP_CONFIG, row?.id ?? null, entry);
        return sent.config;
      });
      notifications.show({
        color: 'teal',
        title: row ? 'MCP server saved' : 'MCP server added',
        message: entry.kind === 'stdio' ? entry.name : entry.url,
      });
      onClose();
    } catch (error) {
      const envKeys = form.getValues('env').map((env) => env.key.trim());
      const position = sent?.position;
      // The form is locked while saving, so every row is still where it was when sent.
      const problem = applyServerErrors(form, error, {
        locPrefix: position ? ['body', 'mcp_config', KIND_KEY[position.kind], position.index] : ['body', 'mcp_config'],
        fieldFor: (path, { msg }) => (position ? formFieldFor(path, msg, envKeys) : undefined),
      });
      setFailed(problem && { problem, sent: sent?.config ?? null });
    }
  });

  const { requestClose, confirmation } = useConfirmDiscard(form.formState.isDirty, onClose);

  const runTest = async () => {
    test.reset();
    if (!(await form.trigger())) return;
    const entry = entryFor(form.getValues(), row);
    setTestedEntry(JSON.stringify(entry));
    test.mutate(entry);
  };

  return (
    <SidePanel opened onClose={requestClose} size="lg" title={row ? `Edit ${row.label}` : 'Add MCP server'}>
      <UnsavedChangesGuard when={form.formState.isDirty && !form.formState.isSubmitting} />
      {confirmation}
      <FormProvider {...form}>
        <form onSubmit={(event) => void submit(event)} noValidate aria-label={row ? `Edit ${row.label}` : 'Add MCP server'}>
          <fieldset disabled={form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="md">
              {failed && (
                <SaveProblemAlert problem={failed.problem} title="Server not saved" describeLoc={(loc) => describeLoc(loc, failed.sent)} />
              )}
              <Input.Wrapper label="Type" error={form.formState.errors.root?.server?.message}>
                <SegmentedControl
                  fullWidth
                  mt={4}
                  data={KIND_OPTIONS}
                  value={kind}
                  onChange={(next) => form.setValue('kind', next as McpKind, { shouldDirty: true })}
                />
              </Input.Wrapper>
              {kind === 'stdio' ? (
                <>
                  <TextField<McpServerFormValues>
                    name="name"
                    label="Name"
                    description="Letters, digits, - and _"
                    placeholder="fetch"
                    data-autofocus
                  />
                  <TextField<McpServerFormValues>
                    name="command"
                    label="Command"
                    description="One executable; arguments go below"
                    placeholder="uvx"
                  />
                  <ArgsEditor />
                  <EnvEditor />
                </>
              ) : (
                <>
                  <TextField<McpServerFormValues>
                    name="url"
                    label="URL"
                    type="url"
                    data-autofocus
                    placeholder={kind === 'sse' ? 'https://mcp.example.com/sse' : 'https://mcp.example.com/mcp'}
                  />
                  <SecretField<McpServerFormValues>
                    name="api_key"
                    label="API key"
                    description="Sent as a bearer token"
                    isSet={storedKeyApplies(values, row) ? row.keySet : false}
                  />
                  {dropsStoredKey(values, row) && (
                    <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} role="status">
                      The stored API key belongs to the old {row?.kind === kind ? 'URL' : 'type'} and will not be kept. Enter it again to
                      keep using one.
                    </Alert>
                  )}
                  {kind === 'shttp' && (
                    <NumberField<McpServerFormValues>
                      name="timeout"
                      label="Timeout"
                      description="Seconds per request, 1 to 3600 (60 when empty)"
                      min={1}
                      max={3600}
                      step={1}
                    />
                  )}
                </>
              )}

              {testApplies && <TestResult pending={test.isPending} result={test.data} error={test.error} />}

              <Group justify="space-between">
                <Button
                  variant="default"
                  leftSection={<IconPlugConnected size={16} />}
                  onClick={() => void runTest()}
                  loading={test.isPending}
                >
                  Test connection
                </Button>
                <Group gap="xs">
                  <Button variant="default" onClick={requestClose}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={form.formState.isSubmitting}>
                    {row ? 'Save' : 'Add server'}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </fieldset>
        </form>
      </FormProvider>
    </SidePanel>
  );
}
