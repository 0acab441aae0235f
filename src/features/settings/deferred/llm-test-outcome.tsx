import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { CredentialTestOutcome, type CredentialVerdict } from './credential-test-outcome';
import type { LlmTest } from '../llm-test-panel';

export default function LlmTestOutcome({ test }: { test: LlmTest }) {
  const { t } = useLingui();
  const { result } = test;
  let verdict: CredentialVerdict | undefined;
  if (result?.ok) {
    const { model } = result;
    verdict = {
      ok: true,
      title: t`${model} responded`,
      body: (
        <Text size="sm" style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
          {result.reply}
        </Text>
      ),
    };
  } else if (result) {
    verdict = { ok: false, title: t`The LLM did not respond`, reason: result.error };
  }
  return <CredentialTestOutcome pending={test.pending} waiting={t`Asking the model…`} error={test.error} verdict={verdict} />;
}
export { loadCatalog as catalog } from './catalog';
