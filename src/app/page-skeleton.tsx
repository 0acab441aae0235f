import { useLingui } from '@lingui/react/macro';
import { Skeleton, Stack } from '@mantine/core';

export function PageSkeleton() {
  const { t } = useLingui();
  return (
    <Stack role="status" aria-busy="true" aria-label={t`Loading page`}>
      <Skeleton height={32} width={220} />
      <Skeleton height={200} />
    </Stack>
  );
}
