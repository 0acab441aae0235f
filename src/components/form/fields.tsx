import { useLingui } from '@lingui/react/macro';
import { NativeSelect, Switch, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { type FieldPath, type FieldValues, useController } from 'react-hook-form';

/*
 * Mantine inputs bound to react-hook-form by name: the value, the change handler, blur for
 * touched state and the field's error message, in one line per field at the call site.
 */

interface FieldProps<T extends FieldValues> {
  name: FieldPath<T>;
  label: string;
  description?: ReactNode;
  placeholder?: string;
  /** Marks it as needed (an asterisk); the schema still says why when it is empty. */
  required?: boolean;
  /** The field a dialog or drawer focuses when it opens (instead of its close button). */
  'data-autofocus'?: boolean;
  /** The field a page focuses when it opens. */
  autoFocus?: boolean;
}

export function TextField<T extends FieldValues>({
  name,
  ...props
}: FieldProps<T> & { type?: 'text' | 'email' | 'url'; autoComplete?: string }) {
  const { field, fieldState } = useController<T>({ name });
  return <TextInput {...props} {...field} value={field.value ?? ''} error={fieldState.error?.message} />;
}

/** Free text with suggestions, through the browser's own `<datalist>` (no script to ship). */
export function SuggestField<T extends FieldValues>({ name, suggestions, ...props }: FieldProps<T> & { suggestions: string[] }) {
  const { field, fieldState } = useController<T>({ name });
  const listId = `${name.replace(/\W/g, '-')}-suggestions`;
  return (
    <>
      <TextInput {...props} {...field} value={field.value ?? ''} list={listId} autoComplete="off" error={fieldState.error?.message} />
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
    </>
  );
}

/**
 * A number as typed: a text input (with the number keyboard on phones) whose value stays the
 * string typed, so an empty field means "not set" and the contract, not the widget, decides what
 * is valid. The browser's own number input would report "5e" or "-" as empty, and a limit would be
 * cleared where the person meant to set one.
 */
export function NumberField<T extends FieldValues>({ name, unit, ...props }: FieldProps<T> & { unit?: string }) {
  const { field, fieldState } = useController<T>({ name });
  return (
    <TextInput {...props} {...field} inputMode="decimal" value={field.value ?? ''} leftSection={unit} error={fieldState.error?.message} />
  );
}

/**
 * A choice among `options`, with an empty choice (its `placeholder`) first unless `oneOf`: then the
 * value is always one of them.
 */
export function SelectField<T extends FieldValues>({
  name,
  options,
  oneOf = false,
  ...props
}: FieldProps<T> & { options: { value: string; label: string }[]; oneOf?: boolean }) {
  const { field, fieldState } = useController<T>({ name });
  const value: string = field.value ?? '';
  // A stored value the list doesn't know (set elsewhere) must still show, not vanish.
  const data = value && !options.some((o) => o.value === value) ? [...options, { value, label: value }] : options;
  const { placeholder, ...rest } = props;
  const { t } = useLingui();
  return (
    <NativeSelect
      {...rest}
      {...field}
      value={value}
      data={oneOf ? data : [{ value: '', label: placeholder ?? t`Not set` }, ...data]}
      error={fieldState.error?.message}
    />
  );
}

export function SwitchField<T extends FieldValues>({ name, label, description }: Omit<FieldProps<T>, 'placeholder'>) {
  const { field, fieldState } = useController<T>({ name });
  const { value, onChange, ...rest } = field;
  return (
    <Switch
      {...rest}
      label={label}
      description={description}
      checked={Boolean(value)}
      onChange={(event) => onChange(event.currentTarget.checked)}
      error={fieldState.error?.message}
    />
  );
}
