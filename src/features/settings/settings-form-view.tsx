import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { type ComponentType, type FormEvent, lazy, type ReactNode, Suspense } from 'react';
import { FormProvider, type UseFormReturn } from 'react-hook-form';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { DEMO_MODEL } from '../../contract/demo-model';
import type { SettingsResponse, SettingsUpdate } from '../../contract/settings';
import { withCatalog } from '../../i18n/catalogs';
import { llmTestRequest, type SettingsFormValues } from './settings-form';
import { type LlmTest, LlmTestPanel } from './llm-test-panel';
import type { FieldsOfKind } from './settings-fields';
import { type SettingsChoices, SettingsSections } from './settings-sections';

/*
 * Parts below the first screen, or shown only at times: their code comes after the page's first
 * load (an empty space should it not come).
 */
const AccountEmail = lazy((): Promise<{ default: ComponentType<{ email: string | null; verified: boolean | null }> }> =>
  withCatalog(import('./deferred/account-email')).then(
    (module) => ({ default: module.AccountEmail }),
    () => ({ default: () => null }),
  ),
);
const DemoModelOffer = lazy((): Promise<{ default: ComponentType<{ onUse: () => void }> }> =>
  withCatalog(import('./deferred/demo-model-offer')).then(
    (module) => ({ default: module.DemoModelOffer }),
    () => ({ default: () => null }),
  ),
);

export interface SettingsFormViewProps {
  form: UseFormReturn<SettingsFormValues, unknown, SettingsUpdate>;
  /** The stored settings, `null` before anything was stored. */
  stored: SettingsResponse | null;
  /** Why the last save failed, for what has no input of its own. */
  problem: SaveProblem | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onDiscard: () => void;
  onDismissProblem: () => void;
  /** The last test of the LLM fields. */
  llmTest: LlmTest;
  onTestLlm: () => void;
  /** The server's lists for the fields that choose from them. */
  choices?: SettingsChoices;
  /** Secrets the server cannot store (OpenHands: the sandbox API key), shown as a line instead of an input. */
  unstorable?: readonly FieldsOfKind<'secret'>[];
  /** Fields the server stores but does not act on (it says which, and why): each says so. */
  notUsed?: Readonly<Record<string, string>>;
  /** Fields whose value is the team's default (the user has none of their own): each says so. */
  inherited?: readonly string[];
  /** What the Search section shows under its key: its test, loaded on demand (settings-page.tsx). */
  searchKeyTest?: ReactNode;
}

/** The Settings form as it looks: every section, the save problem, and the save bar. */
export function SettingsFormView({
  form,
  stored,
  problem,
  onSubmit,
  onDiscard,
  onDismissProblem,
  llmTest,
  onTestLlm,
  choices,
  unstorable,
  notUsed,
  inherited,
  searchKeyTest,
}: SettingsFormViewProps) {
  const { t } = useLingui();
  const { isDirty, isSubmitting } = form.formState;
  const [llm_model, llm_base_url, llm_api_key] = form.watch(['llm_model', 'llm_base_url', 'llm_api_key']);
  const llmRequest = llmTestRequest({ llm_model, llm_base_url, llm_api_key });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Settings`}>
        <Stack gap="lg">
          {stored === null && (
            <Alert color="blue" variant="light" icon={<IconInfoCircle />} title={t`Nothing stored yet`}>
              <Trans>These are the defaults. They are stored on the server with your first saved change.</Trans>
            </Alert>
          )}
          {problem && <SaveProblemAlert problem={problem} title={t`Settings not saved`} onClose={onDismissProblem} />}
          <SettingsSections
            stored={stored}
            choices={choices}
            unstorable={unstorable}
            notUsed={notUsed}
            inherited={inherited}
            extras={{
              llm: (
                <Stack gap="sm">
                  {llm_model !== DEMO_MODEL && (
                    <Suspense>
                      <DemoModelOffer onUse={() => form.setValue('llm_model', DEMO_MODEL, { shouldDirty: true, shouldValidate: true })} />
                    </Suspense>
                  )}
                  <LlmTestPanel
                    test={llmTest}
                    applies={llmTest.request === JSON.stringify(llmRequest)}
                    canTest={llmRequest.model !== ''}
                    onTest={onTestLlm}
                  />
                </Stack>
              ),
              search: searchKeyTest,
              account: (
                <Suspense>
                  <AccountEmail email={stored?.email ?? null} verified={stored?.email_verified ?? null} />
                </Suspense>
              ),
            }}
          />
          {/* Only when there is something to save: a bar that says "saved" costs a phone screen its bottom. */}
          {isDirty && <SaveBar saving={isSubmitting} onDiscard={onDiscard} />}
        </Stack>
      </form>
    </FormProvider>
  );
}

function SaveBar({ saving, onDiscard }: { saving: boolean; onDiscard: () => void }) {
  return (
    // `data-bottom-bar`: while it shows, what is scrolled to stops above it (src/app/layout.module.css).
    <Paper withBorder shadow="md" p="sm" radius="md" pos="sticky" bottom={12} style={{ zIndex: 2 }} data-bottom-bar>
      <Group justify="space-between">
        <Text size="sm" role="status">
          <Trans>You have unsaved changes.</Trans>
        </Text>
        <Group gap="xs">
          <Button variant="default" onClick={onDiscard} disabled={saving}>
            <Trans>Discard</Trans>
          </Button>
          <Button type="submit" loading={saving}>
            <Trans>Save changes</Trans>
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
