import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { CopyValue } from '../../components/copy-value';
import { Dialog } from '../../components/dialog';
import { contractResolver } from '../../components/form/contract-resolver';
import { SelectField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { useConfirmDiscard } from '../../components/use-confirm-discard';
import { emailProblem } from '../../contract/rules';
import { type InvitationRequest, invitationRequestSchema, type InvitationResult } from '../../contract/team';
import type { Role } from '../../contract/roles';
import { inviteMutation } from '../../queries/team';

/** The addresses typed, however they are separated (commas, spaces, lines). */
export const addressesIn = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

interface InviteFormValues {
  emails: string;
  role: Role;
}

const toRequest = (values: InviteFormValues): InvitationRequest => ({ emails: addressesIn(values.emails), role: values.role });

/** Every problem of the list (`emails.3`) is the one input's. */
const PLACEMENT = { isField: (path: string) => path === 'emails' || path === 'role' };

/** Which address is wrong, said by name (in `i18n`'s language): the contract's message would not say which of the list. */
const addressProblems = (i18n: I18n) => (values: InviteFormValues) => {
  const wrong = addressesIn(values.emails)
    .filter((address) => emailProblem(address))
    .join(', ');
  return { emails: wrong === '' ? undefined : i18n._(msg`Not an email address: ${wrong}`) };
};

const resolverIn = (i18n: I18n) =>
  contractResolver(toRequest, invitationRequestSchema, { ...PLACEMENT, formProblems: addressProblems(i18n) });

function EmailsField() {
  const { t } = useLingui();
  const { field, fieldState } = useController<InviteFormValues, 'emails'>({ name: 'emails' });
  return (
    <Textarea
      {...field}
      label={t`Email addresses`}
      description={t`One or more, separated by commas or new lines`}
      error={fieldState.error?.message}
      autosize
      minRows={2}
      data-autofocus
    />
  );
}

/** The roles someone of `myRole` may give: an owner also makes owners. */
const roleChoices = (myRole: Role, i18n: I18n) => [
  { value: 'member', label: i18n._(msg`Member: their own settings, conversations and sandboxes`) },
  { value: 'admin', label: i18n._(msg`Admin: also users, and everyone’s conversations and sandboxes`) },
  ...(myRole === 'owner' ? [{ value: 'owner', label: i18n._(msg`Owner: everything`) }] : []),
];

/**
 * Invites people by email. Each gets a link to set their password, shown here once to hand over
 * (the server sends no mail); it works for 7 days. What was typed stays when the server refuses it.
 */
export function InviteDialog({ myRole, onClose }: { myRole: Role; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const invite = useMutation(inviteMutation(queryClient));
  const [result, setResult] = useState<InvitationResult | null>(null);
  const resolver = useMemo(() => resolverIn(i18n), [i18n]);
  const form = useForm<InviteFormValues>({ defaultValues: { emails: '', role: 'member' }, resolver });
  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => setResult(await invite.mutateAsync(toRequest(values))),
    serverErrors: { ...PLACEMENT, verdict: t`Nobody was invited` },
  });
  const { requestClose, confirmation } = useConfirmDiscard(!result && form.formState.isDirty, onClose);

  return (
    <Dialog opened onClose={requestClose} title={t`Invite people`} size="lg">
      {confirmation}
      {result ? (
        <Stack>
          {result.successful.length > 0 && (
            <Text size="sm">
              <Trans>Give each person their link: it is shown only now, and works once within 7 days.</Trans>
            </Text>
          )}
          {result.successful.map(({ id, email, link }) => (
            <Group key={id} justify="space-between" wrap="nowrap">
              <Text size="sm">{email}</Text>
              {link && <CopyValue value={link} label={t`invitation link for ${email}`} maxWidth={320} />}
            </Group>
          ))}
          {result.failed.map((failure) => (
            <Alert key={failure.email} color="red" title={failure.email}>
              {failure.error}
            </Alert>
          ))}
          <Group justify="flex-end">
            <Button onClick={onClose}>
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      ) : (
        <FormProvider {...form}>
          <form noValidate onSubmit={submit}>
            <Stack>
              {problem && <SaveProblemAlert problem={problem} />}
              <EmailsField />
              <SelectField<InviteFormValues> name="role" label={t`Role`} options={roleChoices(myRole, i18n)} oneOf />
              <Group justify="flex-end">
                <Button variant="default" onClick={requestClose}>
                  <Trans>Cancel</Trans>
                </Button>
                <Button type="submit" loading={form.formState.isSubmitting}>
                  <Trans>Invite</Trans>
                </Button>
              </Group>
            </Stack>
          </form>
        </FormProvider>
      )}
    </Dialog>
  );
}
