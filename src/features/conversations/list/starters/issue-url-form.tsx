import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';

const EXAMPLE = 'https://github.com/owner/repo/issues/1';

/** An address that can be an issue's page: the server says whether it is one of a connected provider. */
function addressProblem(typed: string): string | undefined {
  if (typed === '') return t`Paste an issue's address`;
  try {
    const url = new URL(typed);
    if (url.protocol === 'https:' || url.protocol === 'http:') return undefined;
  } catch {
    // not an address
  }
  return t`Paste an issue's address, such as ${EXAMPLE}`;
}

/** Starting from an issue by its address: its solvability is estimated first (`onCheck`). */
export function IssueUrlForm({ onCheck }: { onCheck: (url: string) => void }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const url = typed.trim();
    const found = addressProblem(url);
    setProblem(found);
    if (!found) onCheck(url);
  };
  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} noValidate aria-label={t`Start from an issue`}>
      <Group align="flex-start" wrap="wrap">
        <TextInput
          flex="1 1 20rem"
          label={t`Start from an issue`}
          description={t`Paste its address: your LLM estimates whether the agent can solve it before you start`}
          placeholder={EXAMPLE}
          value={typed}
          onChange={(event) => {
            setTyped(event.currentTarget.value);
            setProblem(undefined);
          }}
          error={problem}
        />
        {/* Level with the input, below its label and description. */}
        <Button type="submit" variant="light" mt={{ base: 0, xs: 44 }}>
          <Trans>Check solvability</Trans>
        </Button>
      </Group>
    </Paper>
  );
}
