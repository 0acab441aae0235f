import { SimpleGrid, TextInput } from '@mantine/core';

/**
 * The account's email as the server says it, read-only: it is the address the user signs in
 * with (from their invitation or their identity provider), which a settings save does not change.
 */
export function AccountEmail({ email, verified }: { email: string | null; verified: boolean | null }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
      <TextInput
        label="Email"
        value={email ?? ''}
        readOnly
        placeholder="None on this account"
        description="The address you sign in with, from your invitation or your identity provider; it is not changed here (the agent's commits use Git user email)"
      />
      <TextInput
        label="Email verified"
        value={verified === null ? '' : verified ? 'Yes' : 'No'}
        readOnly
        description="Whether an identity provider said this address is yours when you signed in with it"
      />
    </SimpleGrid>
  );
}
