import { Badge } from '@mantine/core';

/** The model's ratings (SDK `SecurityRisk`) as a person reads them; UNKNOWN says nothing. */
const RISKS: Record<string, { label: string; color: string }> = {
  LOW: { label: 'Low risk', color: 'gray' },
  MEDIUM: { label: 'Medium risk', color: 'yellow' },
  HIGH: { label: 'High risk', color: 'red' },
};

/** How risky the model rated an action (with the LLM security analyzer), when it did. */
export function RiskBadge({ risk }: { risk: string }) {
  const known = RISKS[risk];
  return known ? (
    <Badge variant="light" color={known.color} size="sm" style={{ flex: 'none' }}>
      {known.label}
    </Badge>
  ) : null;
}
