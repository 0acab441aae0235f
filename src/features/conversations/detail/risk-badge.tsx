import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';

/** The model's ratings (SDK `SecurityRisk`) as a person reads them; UNKNOWN says nothing. */
const RISKS: Record<string, { label: MessageDescriptor; color: string }> = {
  LOW: { label: msg`Low risk`, color: 'gray' },
  MEDIUM: { label: msg`Medium risk`, color: 'yellow' },
  HIGH: { label: msg`High risk`, color: 'red' },
};

/** How risky the model rated an action (with the LLM security analyzer), when it did. */
export function RiskBadge({ risk }: { risk: string }) {
  const { _ } = useLingui();
  const known = RISKS[risk];
  return known ? (
    <Badge variant="light" color={known.color} size="sm" style={{ flex: 'none' }}>
      {_(known.label)}
    </Badge>
  ) : null;
}
