import { TextInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { ValidationErrorEntry } from '../../contract/validation-detail';
import { renderView } from '../../testing/render';
import { useServerSubmit } from './use-server-submit';

const rejected = (...detail: ValidationErrorEntry[]) => new ApiError('The server rejected values', 'http', 422, detail, { detail });

interface Values {
  name: string;
  count: string;
}

function Harness({ save }: { save: (values: Values) => Promise<void> }) {
  const form = useForm<Values>({ defaultValues: { name: '', count: '' } });
  const { submit, problem, dismissProblem } = useServerSubmit(form, {
    save,
    serverErrors: { isField: (path) => path === 'name' || path === 'count' },
  });
  const { errors } = form.formState;
  return (
    <form onSubmit={submit} noValidate>
      {problem && (
        <p role="alert">
          {problem.message} {problem.unmatched.map((entry) => entry.loc.join('.')).join(', ')}
          <button type="button" onClick={dismissProblem}>
            Dismiss
          </button>
        </p>
      )}
      <TextInput label="Name" {...form.register('name')} error={errors.name?.message} />
      <TextInput label="Count" {...form.register('count')} error={errors.count?.message} />
      <button type="submit">Save</button>
    </form>
  );
}

describe('useServerSubmit', () => {
  it('saves what the form submits', async () => {
    const save = vi.fn(async () => {});
    const { user } = renderView(<Harness save={save} />);
    await user.type(screen.getByLabelText('Name'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(save).toHaveBeenCalledWith({ name: 'ada', count: '' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a 422 at the inputs it names and the rest above, keeps what was typed, and clears the problem on the next try', async () => {
    const save = vi.fn<(values: Values) => Promise<void>>(async () => {
      throw rejected(
        { type: 'greater_than_equal', loc: ['body', 'count'], msg: 'Input should be greater than or equal to 1', ctx: { ge: 1 } },
        { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted' },
      );
    });
    const { user } = renderView(<Harness save={save} />);
    await user.type(screen.getByLabelText('Name'), 'ada');
    await user.type(screen.getByLabelText('Count'), '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Nothing was saved. The server rejected the values marked below, and these: body.colour',
    );
    expect(screen.getByLabelText('Count')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Count')).toHaveAccessibleDescription('Must be greater than or equal to 1');
    expect(screen.getByLabelText('Name')).toHaveValue('ada');
    expect(screen.getByLabelText('Count')).toHaveValue('0');

    save.mockResolvedValueOnce(undefined);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why a save failed that no input can show, until dismissed', async () => {
    const { user } = renderView(<Harness save={() => Promise.reject(new ApiError('Service unavailable', 'http', 503))} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was saved: Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
