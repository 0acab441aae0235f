import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { integer, rule } from './rules';
import { providerSchema } from './secrets';

/*
 * Tasks suggested from the user's git providers (`GET /api/user/suggested-tasks`, as OpenHands'
 * `SuggestedTask` at the pinned commit, plus our `branch`, `url` and `prompt`), and the estimate
 * of whether the agent can solve an issue (`POST /api/user/solvability`, ours).
 */

/** OpenHands' task types; `OPEN_PR` (a pull request that needs nothing) it declares but never suggests. */
export const SUGGESTED_TASK_TYPES = ['MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS', 'OPEN_ISSUE', 'OPEN_PR'] as const;
export type SuggestedTaskType = (typeof SUGGESTED_TASK_TYPES)[number];

export const suggestedTaskSchema = z.object({
  git_provider: providerSchema,
  task_type: z.enum(SUGGESTED_TASK_TYPES),
  repo: z.string(),
  issue_number: integer(),
  title: z.string(),
  /** Ours: the branch to work on, the pull request's own or the repository's default (`null`: the provider did not say). */
  branch: z._default(z.nullable(z.string()), null),
  /** Ours: the pull request's or issue's page on the provider. */
  url: z._default(z.nullable(z.string()), null),
  /** Ours: the first message of a conversation that does the task (OpenHands' `get_prompt_for_task`). */
  prompt: z._default(z.nullable(z.string()), null),
});
export type SuggestedTask = z.output<typeof suggestedTaskSchema>;

export const suggestedTasksSchema = z.array(suggestedTaskSchema);

export const TASK_PROVIDERS = ['github', 'gitlab', 'bitbucket'] as const;
export type TaskProvider = (typeof TASK_PROVIDERS)[number];

/**
 * The issue to estimate: its address on the provider (`issue_url`), or the provider, repository
 * and number of one (a suggested task's). The service says which is missing.
 */
export const solvabilityRequestSchema = z.object({
  issue_url: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(2000)))),
  git_provider: z.optional(z.nullable(providerSchema)),
  repo: z.optional(
    z.nullable(
      z.string().check(
        z.regex(/^[\w.-]+(\/[\w.-]+)+$/, 'Expected a repository as owner/name'),
        rule((name: string) =>
          name.split('/').some((part) => /^\.{1,2}$/.test(part)) ? msg`Expected a repository as owner/name` : undefined,
        ),
      ),
    ),
  ),
  issue_number: z.optional(z.nullable(integer().check(z.gte(1)))),
});
export type SolvabilityRequest = z.output<typeof solvabilityRequestSchema>;
export type SolvabilityRequestInput = z.input<typeof solvabilityRequestSchema>;

/** OpenHands' difficulty levels, by score: EASY from 0.7, MEDIUM from 0.4, HARD below. */
export const DIFFICULTIES = ['EASY', 'MEDIUM', 'HARD'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const difficultyOf = (score: number): Difficulty => (score >= 0.7 ? 'EASY' : score >= 0.4 ? 'MEDIUM' : 'HARD');

export const solvabilityEstimateSchema = z.object({
  /** The issue as a task to start: `OPEN_ISSUE` on the repository's default branch, with its prompt. */
  task: suggestedTaskSchema,
  /** How likely the agent resolves the issue on its own, 0 to 1. */
  score: z.number().check(z.gte(0), z.lte(1)),
  difficulty: z.enum(DIFFICULTIES),
  /** At most two sentences on what makes the issue easy or hard. */
  summary: z.string(),
  /** What the user could add to the issue (or say in the conversation) to make it easier. */
  actionable_feedback: z.array(z.string()),
  /** What already helps. */
  positive_feedback: z.array(z.string()),
  /** The model that estimated it. */
  model: z.string(),
});
export type SolvabilityEstimate = z.output<typeof solvabilityEstimateSchema>;
