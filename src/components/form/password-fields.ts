import { t } from '@lingui/core/macro';
/** The form's problem when a new password was not typed the same twice. */
export const differentTwice = (password: string, repeated: string) => (password === repeated ? undefined : t`The two passwords differ`);
