import { t } from '@lingui/core/macro';
import { type BaseSyntheticEvent, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { applyServerErrors, type SaveProblem, type ServerErrorOptions } from './apply-server-errors';

/**
 * The submit of a form that saves to the server. A failed save puts the server's error on the
 * form (`serverErrors` says where: 422 entries on the inputs they name, in the console's words)
 * and what found no input in `problem`, for a `<SaveProblemAlert>`. What was typed stays.
 */
export function useServerSubmit<T extends FieldValues, TSubmitted>(
  form: UseFormReturn<T, unknown, TSubmitted>,
  {
    save,
    serverErrors,
  }: {
    /** Sends what the form submits (after its resolver); throws the server's error. */
    save: (values: TSubmitted) => Promise<void>;
    serverErrors: ServerErrorOptions<T>;
  },
) {
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const submit = form.handleSubmit(
    async (values) => {
      setProblem(null);
      try {
        await save(values);
      } catch (error) {
        setProblem(applyServerErrors(form, error, serverErrors));
      }
    },
    // A problem the form's check found at no input of its own.
    (errors) => {
      const message = errors.root?.message;
      const verdict = serverErrors.verdict ?? t`Nothing was saved`;
      setProblem(message ? { message: `${verdict}: ${message}`, unmatched: [] } : null);
    },
  );
  return {
    submit: (event?: BaseSyntheticEvent) => void submit(event),
    problem,
    dismissProblem: () => setProblem(null),
  };
}
