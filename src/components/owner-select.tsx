import { useLingui } from '@lingui/react/macro';
import { NativeSelect } from '@mantine/core';
import type { Owner } from '../contract/team';

/** An admin's filter of a list by whose things they are ('' for everyone's). */
export function OwnerSelect({ owners, value, onChange }: { owners: readonly Owner[]; value: string; onChange: (owner: string) => void }) {
  const { t } = useLingui();
  return (
    <NativeSelect
      label={t`Owner`}
      data={[
        { value: '', label: t`Everyone` },
        ...owners.map((owner) => ({ value: owner.id, label: owner.name })),
        ...(value && !owners.some((owner) => owner.id === value) ? [{ value, label: value }] : []),
      ]}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
