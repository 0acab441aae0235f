import { Paper, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { PageHeader } from './page-header';

/** A page whose feature has not landed yet, saying what it will hold. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="xl" radius="md" ta="center">
        <ThemeIcon size="xl" radius="xl" variant="light" mx="auto" mb="sm">
          <IconTools size={22} />
        </ThemeIcon>
        <Title order={2} size="h4">
          Coming soon
        </Title>
        <Text c="dimmed" mt={4}>
          {description}
        </Text>
      </Paper>
    </>
  );
}
