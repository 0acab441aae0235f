import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { integer, rule } from './rules';

/*
 * Usage and cost (ours): the LLM calls agents made through the LLM proxy (tokens, dollars), the
 * time sandboxes ran and the conversations started, per UTC day, per user and per model. A member
 * sees their own; owners and admins everyone's.
 */

/** The longest range one request covers, in days. */
export const MAX_USAGE_DAYS = 366;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a calendar day written `YYYY-MM-DD`. */
export const isDay = (value: string): boolean => DAY_PATTERN.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

const dayProblem = (value: string) => (isDay(value) ? undefined : msg`Enter a day such as 2026-12-01`);
const day = () => z.string().check(rule(dayProblem));

/** Days from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

/** `GET /api/usage` and its CSV: the UTC days `from` to `to` (both included; the last 30 days when absent), one user's or everyone's. */
export const usageQuerySchema = z
  .object({
    from: z.optional(day()),
    to: z.optional(day()),
    user_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  })
  .check(
    z.superRefine((query, ctx) => {
      if (!query.from || !query.to || !isDay(query.from) || !isDay(query.to)) return;
      const days = daysBetween(query.from, query.to);
      if (days < 1) ctx.addIssue({ code: 'custom', message: 'The range ends before it starts', path: ['to'], input: query.to });
      else if (days > MAX_USAGE_DAYS)
        ctx.addIssue({ code: 'custom', message: `At most ${MAX_USAGE_DAYS} days at once`, path: ['to'], input: query.to });
    }),
  );
export type UsageQuery = z.output<typeof usageQuerySchema>;

/** What LLM calls used: their count, tokens and dollars (`cost` leaves out calls to models without a price). */
const llmFigures = {
  calls: integer(),
  prompt_tokens: integer(),
  completion_tokens: integer(),
  cache_read_tokens: integer(),
  cost: z.number(),
};

/** Everything counted, for a day, a user or the whole range. */
const allFigures = {
  ...llmFigures,
  /** Seconds sandboxes ran. */
  sandbox_seconds: z.number(),
  conversations: integer(),
};

export const usageDaySchema = z.object({ day: z.string(), ...allFigures });
export type UsageDay = z.output<typeof usageDaySchema>;

export const usageUserSchema = z.object({
  user_id: z.string(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  ...allFigures,
  /** Dollars this calendar month (UTC) so far, against `monthly_cost_limit`. */
  month_cost: z.number(),
  /** Dollars a month an admin allows them (null: no limit); a conversation start over it is refused. */
  monthly_cost_limit: z.nullable(z.number()),
});
export type UsageUser = z.output<typeof usageUserSchema>;

export const usageModelSchema = z.object({ model: z.string(), ...llmFigures });
export type UsageModel = z.output<typeof usageModelSchema>;

/** One user's figures on one day (the charts by user). */
export const usageUserDaySchema = z.object({
  day: z.string(),
  user_id: z.string(),
  cost: z.number(),
  tokens: integer(),
  sandbox_seconds: z.number(),
});
/** One model's figures on one day (the charts by model). */
export const usageModelDaySchema = z.object({ day: z.string(), model: z.string(), cost: z.number(), tokens: integer() });

export const usageSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Whose: a user's id, or null for everyone the caller may see. */
  user_id: z.nullable(z.string()),
  /** Every day of the range, in order, with zeros where nothing was used. */
  days: z.array(usageDaySchema),
  totals: z.object(allFigures),
  /** Everyone with anything in the range (and anyone with a limit), most dollars first. */
  users: z.array(usageUserSchema),
  /** Models by dollars, then tokens; a call that named none is `unknown`. */
  models: z.array(usageModelSchema),
  /** Sandbox seconds by runtime (`process`, `docker`). */
  runtimes: z.array(z.object({ runtime: z.string(), sandbox_seconds: z.number() })),
  by_user_day: z.array(usageUserDaySchema),
  by_model_day: z.array(usageModelDaySchema),
});
export type Usage = z.output<typeof usageSchema>;

/** The CSV's columns, one row per day and user. */
export const USAGE_CSV_COLUMNS = [
  'day',
  'user_id',
  'email',
  'calls',
  'prompt_tokens',
  'completion_tokens',
  'cache_read_tokens',
  'cost_usd',
  'sandbox_hours',
  'conversations',
] as const;
