import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Paper, Stack, Text } from '@mantine/core';
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
import classes from './settings-sections.module.css';

/** What the page knows of the stored secrets: whether each one is set. */
type StoredSecrets = Pick<SettingsResponse, `${FieldsOfKind<'secret'>}_set`> | null;

/** The server's lists (`/api/options/*`) each field may choose from; absent while loading or when the server has none. */
export type SettingsChoices = Partial<Record<OptionKind, string[]>>;

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

const NOT_USED = msg`Not used by this server`;
const INHERITED = msg`Your team’s default: set your own to use another, clear it to go back`;
const NONE_OFFERED = msg`This server offers none`;

/** A field's help, and what else is true of it (each already in the console's language), in one description. */
const helpOf = (lines: (string | false | undefined)[]) =>
  lines.filter((line) => typeof line === 'string' && line !== '').join('. ') || undefined;

/** The input for one field, as its entry in the table says. */
function SettingField({ name, stored, choices, unstorable, notUsed, inherited }: FieldContext & { name: SettingsFormField }) {
  const { i18n, _ } = useLingui();
  const spec: FieldSpec = SETTINGS_FIELDS[name];
  const reason = notUsed[name];
  // The server's reason is its own words (in English).
  const notUsedLine = reason === undefined ? undefined : reason ? i18n._(msg`Not used by this server: ${reason}`) : _(NOT_USED);
  const facts = [spec.help && _(spec.help), notUsedLine, inherited.includes(name) && _(INHERITED)];
  const common = { name, label: _(spec.label), description: helpOf(facts) };
  /** A placeholder that cannot be taken for a stored value. */
  const example = (placeholder: string | undefined) => placeholder && i18n._(msg`e.g. ${placeholder}`);
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
      const description = helpOf([...facts, offered?.length === 0 && _(NONE_OFFERED)]);
      const placeholder = spec.placeholder && _(spec.placeholder);
      return <SelectField<SettingsFormValues> {...common} description={description} placeholder={placeholder} options={options} />;
    }
    case 'number':
      return <NumberField<SettingsFormValues> {...common} unit={spec.unit} />;
    case 'switch':
      return <SwitchField<SettingsFormValues> {...common} />;
    case 'secret': {
      const { label } = common;
      if (unstorable.includes(name as FieldsOfKind<'secret'>))
        return (
          <Text size="sm" c="dimmed">
            <Trans>{label}: this server (OpenHands) cannot store it.</Trans>
          </Text>
        );
      return <SecretField<SettingsFormValues> {...common} isSet={stored ? stored[`${name as FieldsOfKind<'secret'>}_set`] : false} />;
    }
  }
}

/** One section: its inputs in a grid, then its switches. */
function Section({ id, extra, ...context }: FieldContext & { id: SectionId; extra: ReactNode }) {
  const fields = FIELD_NAMES.filter((name) => SETTINGS_FIELDS[name].section === id);
  const inputs = fields.filter((name) => SETTINGS_FIELDS[name].kind !== 'switch');
  const switches = fields.filter((name) => SETTINGS_FIELDS[name].kind === 'switch');
  const { _ } = useLingui();
  const { title, description } = SECTIONS[id];
  return (
    <SettingsSection id={id} title={_(title)} description={description && _(description)}>
      {inputs.length > 0 && (
        <div className={classes.grid}>
          {inputs.map((name) => (
            <SettingField key={name} name={name} {...context} />
          ))}
        </div>
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
