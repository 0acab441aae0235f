import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { NumberField, SelectField, SuggestField, SwitchField, TextField } from '../../components/form/fields';
import { SecretField } from '../../components/form/secret-field';
import { SectionHeader } from '../../components/section-header';
import type { OptionKind } from '../../contract/options';
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

/** The server's lists (`/api/options/*`) each field may choose from; absent while loading or when the server has none. */
export type SettingsChoices = Partial<Record<OptionKind, string[]>>;

/** A placeholder that cannot be taken for a stored value. */
const example = (placeholder: string | undefined) => placeholder && `e.g. ${placeholder}`;

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

interface FieldContext {
  stored: StoredSecrets;
  choices: SettingsChoices;
  /** Secrets the server cannot store (OpenHands: the sandbox API key): a line says so instead of an input. */
  unstorable: readonly FieldsOfKind<'secret'>[];
  /** Fields the server stores but does not act on: each says so, with why when the server says. */
  notUsed: Readonly<Record<string, string>>;
  /** Fields whose value is the team's default: each says so. */
  inherited: readonly string[];
}

const NOT_USED = 'Not used by this server';
const INHERITED = 'Your team’s default: set your own to use another, clear it to go back';

/** What the page says of a field the server does not use: why, when the server says. */
const notUsedLine = (reason: string | undefined) => (reason === undefined ? undefined : reason ? `${NOT_USED}: ${reason}` : NOT_USED);

/** A field's help, and what else is true of it: the server does not use it (and why), or its value is the team's default. */
const helpOf = (help: string | undefined, notUsed: string | undefined, inherited: boolean) =>
  [help, notUsedLine(notUsed), inherited ? INHERITED : undefined].filter(Boolean).join('. ') || undefined;

/** The input for one field, as its entry in the table says. */
function SettingField({ name, stored, choices, unstorable, notUsed, inherited }: FieldContext & { name: SettingsFormField }) {
  const spec: FieldSpec = SETTINGS_FIELDS[name];
  const common = { name, label: spec.label, description: helpOf(spec.help, notUsed[name], inherited.includes(name)) };
  switch (spec.kind) {
    case 'text':
      return (
        <TextField<SettingsFormValues>
          {...common}
          type={spec.type}
          placeholder={example(spec.placeholder)}
          autoComplete={spec.autoComplete}
        />
      );
    case 'suggest': {
      const fromServer = spec.suggestionsFrom ? (choices[spec.suggestionsFrom] ?? []) : [];
      const suggestions = [...new Set([...spec.suggestions, ...fromServer])];
      return <SuggestField<SettingsFormValues> {...common} placeholder={example(spec.placeholder)} suggestions={suggestions} />;
    }
    case 'select': {
      const offered = spec.optionsFrom ? choices[spec.optionsFrom] : undefined;
      const options = offered ? offered.map((value) => ({ value, label: value })) : spec.options;
      const description =
        offered?.length === 0 ? `${common.description ? `${common.description}. ` : ''}This server offers none` : common.description;
      return <SelectField<SettingsFormValues> {...common} description={description} placeholder={spec.placeholder} options={options} />;
    }
    case 'number':
      return <NumberField<SettingsFormValues> {...common} unit={spec.unit} />;
    case 'switch':
      return <SwitchField<SettingsFormValues> {...common} />;
    case 'secret':
      if (unstorable.includes(name as FieldsOfKind<'secret'>))
        return (
          <Text size="sm" c="dimmed">
            {spec.label}: this server (OpenHands) cannot store it.
          </Text>
        );
      return <SecretField<SettingsFormValues> {...common} isSet={stored ? stored[`${name as FieldsOfKind<'secret'>}_set`] : false} />;
  }
}

/** One section: its inputs in a grid, then its switches. */
function Section({ id, extra, ...context }: FieldContext & { id: SectionId; extra: ReactNode }) {
  const fields = FIELD_NAMES.filter((name) => SETTINGS_FIELDS[name].section === id);
  const inputs = fields.filter((name) => SETTINGS_FIELDS[name].kind !== 'switch');
  const switches = fields.filter((name) => SETTINGS_FIELDS[name].kind === 'switch');
  const { title, description } = SECTIONS[id];
  return (
    <SettingsSection id={id} title={title} description={description}>
      {inputs.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
          {inputs.map((name) => (
            <SettingField key={name} name={name} {...context} />
          ))}
        </SimpleGrid>
      )}
      {switches.length > 0 && (
        <Stack gap="sm">
          {switches.map((name) => (
            <SettingField key={name} name={name} {...context} />
          ))}
        </Stack>
      )}
      {extra}
    </SettingsSection>
  );
}

/** Every section of the Settings form, in the table's order, each with its `extras` (actions beyond its fields) last. */
export function SettingsSections({
  stored,
  choices = {},
  extras = {},
  unstorable = [],
  notUsed = {},
  inherited = [],
}: {
  stored: StoredSecrets;
  choices?: SettingsChoices;
  extras?: Partial<Record<SectionId, ReactNode>>;
  unstorable?: readonly FieldsOfKind<'secret'>[];
  notUsed?: Readonly<Record<string, string>>;
  inherited?: readonly string[];
}) {
  return (Object.keys(SECTIONS) as SectionId[]).map((id) => (
    <Section
      key={id}
      id={id}
      stored={stored}
      choices={choices}
      unstorable={unstorable}
      notUsed={notUsed}
      inherited={inherited}
      extra={extras[id]}
    />
  ));
}
