import * as z from 'zod/mini';

/*
 * `GET /api/options/models`, `/api/options/agents` and `/api/options/security-analyzers`, as
 * OpenHands answers them: a JSON list of names the Settings choices come from.
 */

export const OPTION_KINDS = ['models', 'agents', 'security-analyzers'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

export const optionNamesSchema = z.array(z.string());
