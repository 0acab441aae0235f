import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Dialog } from '../../components/dialog';
import { applyServerErrors, type SaveProblem } from '../../components/form/apply-server-errors';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import type { McpConfigResponse } from '../../contract/mcp';
import { saveMcpConfigMutation } from '../../queries/settings';
import { type ImportItem, parseMcpServersJson } from './import-export';
import { EMPTY_MCP_CONFIG, KIND_KEY, KIND_LABEL, type Position, withServers } from './mcp-model';

// eslint-disable-next-line lingui/no-unlocalized-strings -- JSON, the same in every language
const EXAMPLE = `{
  "mcpServers": {
    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] },
    "docs": { "type": "http", "url": "https://docs.example.com/mcp" }
  }
}`;

function Status({ item, serverError }: { item: ImportItem; serverError: string | undefined }) {
  const error = serverError ?? item.error;
  if (error) {
    return (
      <Text size="sm" c="red">
        {error}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      <Badge color="teal" variant="light" w="fit-content">
        <Trans>Will be added</Trans>
      </Badge>
      {item.warnings?.map((warning) => (
        <Text key={warning} size="xs" c="var(--mantine-color-orange-light-color)">
          {warning}
        </Text>
      ))}
    </Stack>
  );
}

/** Paste a `{"mcpServers": …}` block, see what each entry becomes, add the valid ones. */
export function ImportDialog({ config, onClose }: { config: McpConfigResponse | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [text, setText] = useState('');
  const [serverErrors, setServerErrors] = useState<Map<number, string>>(new Map());
  const [failure, setFailure] = useState<SaveProblem | null>(null);
  const save = useMutation(saveMcpConfigMutation(useQueryClient()));
  const parsed = useMemo(() => (text.trim() ? parseMcpServersJson(text, config, i18n) : null), [text, config, i18n]);
  const items = parsed?.ok ? parsed.items : [];
  const addable = items.filter((item) => item.entry && !item.error);
  const addableCount = addable.length;

  const add = async () => {
    setServerErrors(new Map());
    setFailure(null);
    const entries = addable.map((item) => item.entry!);
    let positions: Position[] = [];
    try {
      await save.mutateAsync((fresh) => {
        const next = withServers(fresh ?? EMPTY_MCP_CONFIG, entries);
        positions = next.positions;
        return next.config;
      });
      const count = entries.length;
      notifications.show({
        color: 'teal',
        title: t`MCP servers imported`,
        message: t`${plural(count, { one: '# server added', other: '# servers added' })}`,
      });
      onClose();
    } catch (error) {
      // Each rejected entry is shown at its row (the preview is the "form": its fields are
      // `<row>.<path in the entry>`); the import is all or nothing.
      const byRow = new Map<number, string>();
      const rowFor = (kindKey: string | undefined, index: number) =>
        items.indexOf(addable[positions.findIndex((p) => KIND_KEY[p.kind] === kindKey && p.index === index)]!);
      const problem = applyServerErrors<Record<string, string>>(
        {
          setError: (field, { message = '' }) => {
            const [row, ...path] = field.split('.');
            const text = path.length > 0 ? `${path.join('.')}: ${message}` : message;
            byRow.set(Number(row), [byRow.get(Number(row)), text].filter(Boolean).join('; '));
          },
        },
        error,
        {
          locPrefix: ['body', 'mcp_config'],
          fieldFor: (path) => {
            const [kindKey, index, ...rest] = path.split('.');
            const row = rowFor(kindKey, Number(index));
            return row === -1 ? undefined : [row, ...rest].join('.');
          },
          verdict: t`Nothing was added`,
        },
      );
      setServerErrors(byRow);
      setFailure(problem ?? { message: t`Nothing was added. The server rejected the entries marked below.`, unmatched: [] });
    }
  };

  return (
    <Dialog opened onClose={onClose} title={t`Import MCP servers`} size="xl">
      <Stack>
        <Textarea
          label="JSON"
          data-autofocus
          description={t`The mcpServers block from Claude Desktop, Cursor or VS Code`}
          placeholder={EXAMPLE}
          autosize
          minRows={6}
          maxRows={16}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setServerErrors(new Map());
            setFailure(null);
          }}
          error={parsed && !parsed.ok ? parsed.error : undefined}
        />
        {failure && <SaveProblemAlert problem={failure} />}
        {items.length > 0 && (
          <Table aria-label={t`Import preview`} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Name</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Type</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Result</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item, index) => (
                <Table.Tr key={item.name}>
                  <Table.Td>{item.name}</Table.Td>
                  <Table.Td>{item.entry ? KIND_LABEL[item.entry.kind] : '—'}</Table.Td>
                  <Table.Td>
                    <Status item={item} serverError={serverErrors.get(index)} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => void add()} disabled={addableCount === 0} loading={save.isPending}>
            {t`Add ${plural(addableCount, { one: '# server', other: '# servers' })}`}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
