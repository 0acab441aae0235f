import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, PasswordInput } from '@mantine/core';
import { type FieldPath, type FieldValues, useController } from 'react-hook-form';

/**
 * What the user wants done with a write-only secret: keep the stored one (empty, not cleared),
 * replace it (a typed value) or remove it (`clear`).
 */
export interface SecretDraft {
  value: string;
  clear: boolean;
}

export const KEEP_SECRET: SecretDraft = { value: '', clear: false };

/** The wire value for a draft: `null` keeps, `""` clears, a string replaces. */
export function secretUpdate(draft: SecretDraft): string | null {
  if (draft.clear) return '';
  return draft.value === '' ? null : draft.value;
}

interface SecretFieldProps<T extends FieldValues> {
  name: FieldPath<T>;
  label: string;
  /** Whether the server has a value stored; `undefined` when the server doesn't say. */
  isSet: boolean | undefined;
  description?: string;
  /** Offer "Clear" for a stored value (off where removing has its own action). */
  clearable?: boolean;
  placeholder?: string;
  /** Show whether one is stored beside the label (off where the surrounding card already says so). */
  showStatus?: boolean;
}

function status(draft: SecretDraft, isSet: boolean | undefined): { text: MessageDescriptor; color: string } | null {
  if (draft.clear) return { text: msg`Will be cleared`, color: 'orange' };
  if (draft.value) return { text: isSet ? msg`Will be replaced` : msg`Will be set`, color: 'blue' };
  if (isSet === undefined) return null;
  return isSet ? { text: msg`Set`, color: 'teal' } : { text: msg`Not set`, color: 'gray' };
}

/**
 * A password field for a secret the server never sends back. It shows whether one is stored;
 * leaving it empty keeps it, and "Clear" removes it on save (with "Undo" until then).
 */
export function SecretField<T extends FieldValues>({
  name,
  label,
  isSet,
  description,
  clearable = true,
  placeholder: emptyPlaceholder,
  showStatus = true,
}: SecretFieldProps<T>) {
  const { t, i18n } = useLingui();
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name });
  const draft: SecretDraft = value ?? KEEP_SECRET;
  const badge = showStatus ? status(draft, isSet) : null;
  const placeholder = draft.clear
    ? t`Will be removed when you save`
    : isSet
      ? t`Stored — type to replace, leave empty to keep`
      : (emptyPlaceholder ?? t`Not set`);

  const action = draft.clear ? (
    <Button variant="default" onClick={() => onChange(KEEP_SECRET)} aria-label={t`Undo clearing ${label}`}>
      <Trans>Undo</Trans>
    </Button>
  ) : isSet && clearable ? (
    <Button variant="default" color="red" onClick={() => onChange({ value: '', clear: true })} aria-label={t`Clear ${label}`}>
      <Trans>Clear</Trans>
    </Button>
  ) : null;

  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <PasswordInput
        style={{ flex: 1 }}
        ref={ref}
        name={name}
        onBlur={onBlur}
        label={label}
        description={
          <Group gap={6} component="span">
            {badge && (
              <Badge component="span" size="xs" variant="light" color={badge.color} data-testid={`${name}-status`}>
                {i18n._(badge.text)}
              </Badge>
            )}
            {description}
          </Group>
        }
        placeholder={placeholder}
        autoComplete="new-password"
        value={draft.value}
        disabled={draft.clear}
        onChange={(event) => onChange({ value: event.currentTarget.value, clear: false })}
        error={fieldState.error?.message}
      />
      {action && <div style={{ paddingTop: 'calc(var(--mantine-line-height-sm) * var(--mantine-font-size-sm) + 1.4rem)' }}>{action}</div>}
    </Group>
  );
}
