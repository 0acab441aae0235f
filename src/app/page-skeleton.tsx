import { Skeleton, Stack } from '@mantine/core';

export function PageSkeleton() {
  return (
    <Stack role="status" aria-busy="true" aria-label="Loading page">
      <Skeleton height={32} width={220} />
      <Skeleton height={200} />
    </Stack>
  );
}
