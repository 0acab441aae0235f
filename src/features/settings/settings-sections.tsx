import { Paper, SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { NumberField, SelectField, SuggestField, SwitchField, TextField } from '../../components/form/fields';
import { SecretField } from '../../components/form/secret-field';
import { SectionHeader } from '../../components/section-header';
import type { SettingsResponse } from '../../contract/settings';
import {
  FIELD_NAMES,
  type FieldsOfKind,
  type FieldSpec,
  type SectionId,
  SECTIONS,
  SETTINGS_FIELDS,
  type SettingsFormField,
} from './settings-fields';
import type { SettingsFormValues } from './settings-form';

/** What the page knows of the stored secrets: whether each one is set. */
type StoredSecrets = Pick<SettingsResponse, `${FieldsOfKind<'secret'>}_set`> | null;

function SettingsSection({ id, title, description, children }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder p="lg" radius="md" aria-labelledby={`${id}-title`} id={id}>
      <Stack gap="md">
        <SectionHeader id={`${id}-title`} title={title} description={description} size="h4" />
        {children}
      </Stack>
    </Paper>
  );
}

/** The input for one field, as its entry in the table says. */
function SettingField({ name, stored }: { name: SettingsFormField; stored: StoredSecrets }) {
  const spec: FieldSpec = SETTINGS_FIELDS[name];
  const common = { name, label: spec.label, description: spec.help };
  switch (spec.kind) {
    case 'text':
      return <TextField<SettingsFormValues> {...common} type={spec.type} placeholder={spec.placeholder} autoComplete={spec.autoComplete} />;
    case 'suggest':
      return <SuggestField<SettingsFormValues> {...common} placeholder={spec.placeholder} suggestions={spec.suggestions} />;
    case 'select':
      return <SelectField<SettingsFormValues> {...common} placeholder={spec.placeholder} options={spec.options} />;
    case 'number':
      return <NumberField<SettingsFormValues> {...common} min={spec.min} step={spec.step} unit={spec.unit} />;
    case 'switch':
      return <SwitchField<SettingsFormValues> {...common} />;
    case 'secret':
      return <SecretField<SettingsFormValues> {...common} isSet={stored ? stored[`${name as FieldsOfKind<'secret'>}_set`] : false} />;
  }
}

/** One section: its inputs in a grid, then its switches. */
function Section({ id, stored, extra }: { id: SectionId; stored: StoredSecrets; extra: ReactNode }) {
  const fields = FIELD_NAMES.filter((name) => SETTINGS_FIELDS[name].section === id);
  const inputs = fields.filter((name) => SETTINGS_FIELDS[name].kind !== 'switch');
  const switches = fields.filter((name) => SETTINGS_FIELDS[name].kind === 'switch');
  const { title, description } = SECTIONS[id];
  return (
    <SettingsSection id={id} title={title} description={description}>
      {inputs.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
          {inputs.map((name) => (
            <SettingField key={name} name={name} stored={stored} />
          ))}
        </SimpleGrid>
      )}
      {switches.length > 0 && (
        <Stack gap="sm">
          {switches.map((name) => (
            <SettingField key={name} name={name} stored={stored} />
          ))}
        </Stack>
      )}
      {extra}
    </SettingsSection>
  );
}

/** Every section of the Settings form, in the table's order, each with its `extras` (actions beyond its fields) last. */
export function SettingsSections({ stored, extras = {} }: { stored: StoredSecrets; extras?: Partial<Record<SectionId, ReactNode>> }) {
  return (Object.keys(SECTIONS) as SectionId[]).map((id) => <Section key={id} id={id} stored={stored} extra={extras[id]} />);
}
