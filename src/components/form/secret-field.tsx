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

function status(draft: SecretDraft, isSet: boolean | undefined): { text: string; color: string } | null {
  if (draft.clear) return { text: 'Will be cleared', color: 'orange' };
  if (draft.value) return { text: isSet ? 'Will be replaced' : 'Will be set', color: 'blue' };
  if (isSet === undefined) return null;
  return isSet ? { text: 'Set', color: 'teal' } : { text: 'Not set', color: 'gray' };
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
  placeholder: emptyPlaceholder = 'Not set',
  showStatus = true,
}: SecretFieldProps<T>) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name });
  const draft: SecretDraft = value ?? KEEP_SECRET;
  const badge = showStatus ? status(draft, isSet) : null;
  const placeholder = draft.clear
    ? 'Will be removed when you save'
    : isSet
      ? 'Stored — type to replace, leave empty to keep'
      : emptyPlaceholder;

  const action = draft.clear ? (
    <Button variant="default" onClick={() => onChange(KEEP_SECRET)} aria-label={`Undo clearing ${label}`}>
      Undo
    </Button>
  ) : isSet && clearable ? (
    <Button variant="default" color="red" onClick={() => onChange({ value: '', clear: true })} aria-label={`Clear ${label}`}>
      Clear
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
                {badge.text}
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
