import { useLingui } from '@lingui/react/macro';
import { Group, NativeSelect, TextInput } from '@mantine/core';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, AUDIT_RESULTS, type AuditFilter } from '../../contract/audit';
import { ACTION_LABELS, RESOURCE_LABELS, RESULT_LABELS } from './labels';

export type AuditFilterKey = 'username' | 'action' | 'resource_type' | 'result' | 'date_from' | 'date_to';

/** The filters of the log: who, what, on what, how it ended, and between which days. */
export function AuditFilters({
  filter,
  onChange,
}: {
  filter: AuditFilter;
  onChange: (changes: Partial<Record<AuditFilterKey, string>>) => void;
}) {
  const { t } = useLingui();
  const any = { value: '', label: t`Any` };
  return (
    <Group align="flex-end" gap="sm">
      <TextInput
        label={t`User`}
        placeholder={t`Email, name or id`}
        value={filter.username ?? ''}
        onChange={(event) => onChange({ username: event.currentTarget.value || undefined })}
        w={220}
      />
      <NativeSelect
        label={t`Action`}
        value={filter.action ?? ''}
        data={[any, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: t(ACTION_LABELS[action]) }))]}
        onChange={(event) => onChange({ action: event.currentTarget.value || undefined })}
      />
      <NativeSelect
        label={t`Resource`}
        value={filter.resource_type ?? ''}
        data={[any, ...AUDIT_RESOURCE_TYPES.map((type) => ({ value: type, label: t(RESOURCE_LABELS[type]) }))]}
        onChange={(event) => onChange({ resource_type: event.currentTarget.value || undefined })}
      />
      <NativeSelect
        label={t`Result`}
        value={filter.result ?? ''}
        data={[any, ...AUDIT_RESULTS.map((result) => ({ value: result, label: t(RESULT_LABELS[result]) }))]}
        onChange={(event) => onChange({ result: event.currentTarget.value || undefined })}
      />
      <TextInput
        type="date"
        label={t`From`}
        value={filter.date_from ?? ''}
        onChange={(event) => onChange({ date_from: event.currentTarget.value || undefined })}
      />
      <TextInput
        type="date"
        label={t`To`}
        value={filter.date_to ?? ''}
        onChange={(event) => onChange({ date_to: event.currentTarget.value || undefined })}
      />
    </Group>
  );
}
