import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Input, SegmentedControl, Stack } from '@mantine/core';
import { IconAlertTriangle, IconPlugConnected } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { FormProvider, type UseFormReturn, useWatch } from 'react-hook-form';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import { NumberField, TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { SecretField } from '../../components/form/secret-field';
import { SidePanel } from '../../components/side-panel';
import { MCP_KINDS, type McpConfigResponse, type McpKind, type McpTestResult } from '../../contract/mcp';
import { ArgsEditor } from './args-editor';
import { EnvEditor } from './env-editor';
import {
  describeLoc,
  dropsStoredKey,
  entryFor,
  KIND_LABEL,
  type McpServerFormValues,
  type McpServerRow,
  storedKeyApplies,
} from './mcp-model';
import { TestResult } from './test-result';

const KIND_OPTIONS = MCP_KINDS.map((kind) => ({ value: kind, label: KIND_LABEL[kind] }));

/** A failed save; entries about other servers are described against the config that was sent. */
export interface FailedSave {
  problem: SaveProblem;
  sent: McpConfigResponse | null;
}

/** The last connection test: of which entry (as JSON), and how it went. */
export interface ConnectionTest {
  entry: string | null;
  pending: boolean;
  result: McpTestResult | undefined;
  error: unknown;
}

export interface McpServerDrawerViewProps {
  form: UseFormReturn<McpServerFormValues>;
  /** The server being edited, `null` to add one. */
  row: McpServerRow | null;
  failed: FailedSave | null;
  test: ConnectionTest;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Absent when the server cannot test MCP servers (OpenHands): no Test button then. */
  onTest?: () => void;
  onClose: () => void;
}

/** The form for one MCP server, made for its kind, with its test result and save problem. */
export function McpServerDrawerView({ form, row, failed, test, onSubmit, onTest, onClose }: McpServerDrawerViewProps) {
  const values = useWatch({ control: form.control }) as McpServerFormValues;
  const kind = values.kind;
  // A test result belongs to the entry that was tested; after any edit it no longer applies.
  const testApplies = test.entry === JSON.stringify(entryFor(values, row));
  const { t, i18n } = useLingui();
  const label = row?.label;
  const title = label === undefined ? t`Add MCP server` : t`Edit ${label}`;

  return (
    <SidePanel opened onClose={onClose} size="lg" title={title}>
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate aria-label={title}>
          <fieldset disabled={form.formState.isSubmitting} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="md">
              {failed && (
                <SaveProblemAlert
                  problem={failed.problem}
                  title={t`Server not saved`}
                  describeLoc={(loc) => describeLoc(loc, failed.sent, i18n)}
                />
              )}
              <Input.Wrapper label={t`Type`} error={form.formState.errors.root?.server?.message}>
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
                    label={t`Name`}
                    description={t`Letters, digits, - and _`}
                    placeholder="fetch"
                    data-autofocus
                  />
                  <TextField<McpServerFormValues>
                    name="command"
                    label={t`Command`}
                    description={t`One executable; arguments go below`}
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
                    label={t`API key`}
                    description={t`Sent as a bearer token`}
                    isSet={storedKeyApplies(values, row) ? row.keySet : false}
                  />
                  {dropsStoredKey(values, row) && (
                    <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} role="status">
                      {row?.kind === kind ? (
                        <Trans>The stored API key belongs to the old URL and will not be kept. Enter it again to keep using one.</Trans>
                      ) : (
                        <Trans>The stored API key belongs to the old type and will not be kept. Enter it again to keep using one.</Trans>
                      )}
                    </Alert>
                  )}
                  {kind === 'shttp' && (
                    <NumberField<McpServerFormValues>
                      name="timeout"
                      label={t`Timeout`}
                      description={t`Seconds per request, 1 to 3600 (60 when empty)`}
                    />
                  )}
                </>
              )}

              {testApplies && <TestResult pending={test.pending} result={test.result} error={test.error} />}

              <Group justify={onTest ? 'space-between' : 'flex-end'}>
                {onTest && (
                  <Button variant="default" leftSection={<IconPlugConnected size={16} />} onClick={onTest} loading={test.pending}>
                    <Trans>Test connection</Trans>
                  </Button>
                )}
                <Group gap="xs">
                  <Button variant="default" onClick={onClose}>
                    <Trans>Cancel</Trans>
                  </Button>
                  <Button type="submit" loading={form.formState.isSubmitting}>
                    {row ? <Trans>Save</Trans> : <Trans>Add server</Trans>}
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
