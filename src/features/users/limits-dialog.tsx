import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useForm } from 'react-hook-form';
import { Dialog } from '../../components/dialog';
import { contractResolver } from '../../components/form/contract-resolver';
import { NumberField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { useConfirmDiscard } from '../../components/use-confirm-discard';
import { type Member, memberPatchSchema } from '../../contract/team';
import { updateMemberMutation } from '../../queries/team';

/** Each limit as typed; empty means none of the user's own. */
interface LimitsFormValues {
  max_running_sandboxes: string;
  max_sandboxes: string;
  monthly_cost_limit: string;
}

const FIELDS = new Set<string>(['max_running_sandboxes', 'max_sandboxes', 'monthly_cost_limit']);
const PLACEMENT = { isField: (path: string) => FIELDS.has(path) };

const limit = (typed: string) => (typed.trim() === '' ? null : Number(typed));
const toPatch = (values: LimitsFormValues) => ({
  max_running_sandboxes: limit(values.max_running_sandboxes),
  max_sandboxes: limit(values.max_sandboxes),
  monthly_cost_limit: limit(values.monthly_cost_limit),
});
const typed = (value: number | null | undefined) => (value == null ? '' : String(value));

/** How many sandboxes of one user may run, and exist; empty means only the server's limits apply. */
export function LimitsDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const save = useMutation(updateMemberMutation(queryClient));
  const form = useForm<LimitsFormValues>({
    defaultValues: {
      max_running_sandboxes: typed(member.max_running_sandboxes),
      max_sandboxes: typed(member.max_sandboxes),
      monthly_cost_limit: typed(member.monthly_cost_limit),
    },
    resolver: contractResolver(toPatch, memberPatchSchema, PLACEMENT),
  });
  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => {
      await save.mutateAsync({ userId: member.user_id, patch: toPatch(values) });
      onClose();
    },
    serverErrors: { ...PLACEMENT, verdict: t`The limits were not saved` },
  });
  const { requestClose, confirmation } = useConfirmDiscard(form.formState.isDirty, onClose);
  const name = member.name || member.email || member.user_id;
  return (
    <Dialog opened onClose={requestClose} title={t`Sandbox limits for ${name}`}>
      {confirmation}
      <FormProvider {...form}>
        <form noValidate onSubmit={submit}>
          <Stack>
            <Text size="sm">
              <Trans>A start over a limit is refused with a message that names it; nothing of theirs is paused or deleted.</Trans>
            </Text>
            {problem && <SaveProblemAlert problem={problem} />}
            <NumberField<LimitsFormValues>
              name="max_running_sandboxes"
              label={t`Running at once`}
              description={t`Empty: only the server’s limit`}
              data-autofocus
            />
            <NumberField<LimitsFormValues> name="max_sandboxes" label={t`In all`} description={t`Empty: only the server’s limit`} />
            <NumberField<LimitsFormValues>
              name="monthly_cost_limit"
              label={t`Monthly budget`}
              unit="$"
              description={t`LLM costs a calendar month (UTC). Once reached, their new conversations are refused until the next month. Empty: no limit`}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={requestClose}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                <Trans>Save limits</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Dialog>
  );
}
