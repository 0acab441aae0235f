import { MantineProvider } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../testing/render';
import { KEEP_SECRET, type SecretDraft, SecretField, secretUpdate } from './secret-field';

/** The field in a form, with the value it would send shown next to it. */
function Harness({ isSet }: { isSet: boolean | undefined }) {
  const form = useForm<{ key: SecretDraft }>({ defaultValues: { key: KEEP_SECRET } });
  const draft = useWatch({ control: form.control, name: 'key' });
  return (
    <MantineProvider>
      <FormProvider {...form}>
        <SecretField<{ key: SecretDraft }> name="key" label="LLM API key" isSet={isSet} />
        <output data-testid="wire">{JSON.stringify(secretUpdate(draft))}</output>
      </FormProvider>
    </MantineProvider>
  );
}

function setup(isSet: boolean | undefined) {
  renderView(<Harness isSet={isSet} />);
  return { user: userEvent.setup(), wire: () => JSON.parse(screen.getByTestId('wire').textContent ?? '') as unknown };
}

describe('SecretField', () => {
  it('shows a stored secret as set, with an empty password input', () => {
    setup(true);
    expect(screen.getByTestId('key-status')).toHaveTextContent('Set');
    const input = screen.getByLabelText('LLM API key');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveValue('');
  });

  it('clears on request, disabled until undone', async () => {
    const { user, wire } = setup(true);
    await user.click(screen.getByRole('button', { name: 'Clear LLM API key' }));
    expect(screen.getByTestId('key-status')).toHaveTextContent('Will be cleared');
    expect(screen.getByLabelText('LLM API key')).toBeDisabled();
    expect(wire()).toBe('');

    await user.click(screen.getByRole('button', { name: 'Undo clearing LLM API key' }));
    expect(screen.getByTestId('key-status')).toHaveTextContent('Set');
    expect(wire()).toBeNull();
  });

  it('replaces when a value is typed', async () => {
    const { user, wire } = setup(true);
    await user.type(screen.getByLabelText('LLM API key'), 'sk-new');
    expect(screen.getByTestId('key-status')).toHaveTextContent('Will be replaced');
    expect(wire()).toBe('sk-new');
  });

  it('offers no Clear when nothing is stored', () => {
    setup(false);
    expect(screen.getByTestId('key-status')).toHaveTextContent('Not set');
    expect(screen.queryByRole('button', { name: /Clear/ })).toBeNull();
  });

  it('shows no status when the server does not say', () => {
    setup(undefined);
    expect(screen.queryByTestId('key-status')).toBeNull();
  });
});
