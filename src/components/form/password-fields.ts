/** The form's problem when a new password was not typed the same twice. */
export const differentTwice = (password: string, repeated: string) => (password === repeated ? undefined : 'The two passwords differ');
