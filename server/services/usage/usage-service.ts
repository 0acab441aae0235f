import { msg } from '@lingui/core/macro';
import {
  daysBetween,
  MAX_USAGE_DAYS,
  type Usage,
  USAGE_CSV_COLUMNS,
  type UsageDay,
  type UsageModel,
  type UsageQuery,
  type UsageUser,
} from '../../../src/contract/usage';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { type Clock, systemClock } from '../../clock';
import { OverBudget } from '../../domain-errors';
import type { UserRecord } from '../../store/users-store';
import { csvLine } from './csv';
import { secondsByDay } from './sandbox-seconds';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
/** How many users an admin's page lists at most (a team, not a crowd). */
const MAX_USERS = 1000;

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const monthStart = (now: Date) => `${now.toISOString().slice(0, 7)}-01T00:00:00.000Z`;
/** Cents are what a person reads; sums of many small floats are rounded to a millionth of a dollar. */
const dollars = (value: number) => Math.round(value * 1e6) / 1e6;

const zeroFigures = () => ({
  calls: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cache_read_tokens: 0,
  cost: 0,
  sandbox_seconds: 0,
  conversations: 0,
});
type Figures = ReturnType<typeof zeroFigures>;

const addLlm = (
  to: { calls: number; prompt_tokens: number; completion_tokens: number; cache_read_tokens: number; cost: number },
  from: typeof to,
) => {
  to.calls += from.calls;
  to.prompt_tokens += from.prompt_tokens;
  to.completion_tokens += from.completion_tokens;
  to.cache_read_tokens += from.cache_read_tokens;
  to.cost += from.cost;
};

const getOr = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
};

/**
 * Usage and cost: LLM calls (tokens and dollars, recorded by the LLM proxy), the time sandboxes
 * ran (recorded by the sandbox meter) and conversations started, per UTC day, user and model, for
 * what the caller may see; and each user's monthly budget, which a conversation start is held to.
 */
export class UsageService {
  constructor(
    private readonly data: DataAccess,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The range a query names; what it leaves out: 30 days ending today (or starting at `from`). */
  #range(query: UsageQuery): { from: string; to: string } {
    const shift = (day: string, days: number) => new Date(Date.parse(startOf(day)) + days * DAY_MS).toISOString().slice(0, 10);
    const today = this.clock().toISOString().slice(0, 10);
    if (query.from && query.to) return { from: query.from, to: query.to };
    if (query.to) return { from: shift(query.to, 1 - DEFAULT_DAYS), to: query.to };
    if (query.from) {
      const days = daysBetween(query.from, today);
      return { from: query.from, to: days >= 1 && days <= MAX_USAGE_DAYS ? today : shift(query.from, DEFAULT_DAYS - 1) };
    }
    return { from: shift(today, 1 - DEFAULT_DAYS), to: today };
  }

  async usage(caller: Caller, query: UsageQuery): Promise<Usage> {
    const { from, to } = this.#range(query);
    const usage = this.data.as(caller).usage;
    const whose = usage.whose(query.user_id);
    const fromIso = startOf(from);
    const toIso = startOf(dayAfter(to));
    const [llm, runs, starts, monthCosts, people] = await Promise.all([
      usage.llmByDay(query.user_id, fromIso, toIso),
      usage.sandboxRuns(query.user_id, fromIso, toIso),
      usage.startsByDay(query.user_id, fromIso, toIso),
      usage.costSince(query.user_id, monthStart(this.clock())),
      whose === null ? this.data.as(caller).users.list(0, MAX_USERS) : this.#user(caller, whose),
    ]);

    const days = new Map<string, Figures>();
    for (let day = from; day <= to; day = dayAfter(day)) days.set(day, zeroFigures());
    const users = new Map<string, Figures>();
    const models = new Map<string, Omit<UsageModel, 'model'>>();
    const userDays = new Map<string, { day: string; user_id: string; cost: number; tokens: number; sandbox_seconds: number }>();
    const modelDays = new Map<string, { day: string; model: string; cost: number; tokens: number }>();
    const runtimes = new Map<string, number>();
    const userDay = (day: string, userId: string) =>
      getOr(userDays, `${day} ${userId}`, () => ({ day, user_id: userId, cost: 0, tokens: 0, sandbox_seconds: 0 }));

    for (const row of llm) {
      const model = row.model ?? 'unknown';
      addLlm(getOr(days, row.day, zeroFigures), row);
      addLlm(getOr(users, row.user_id, zeroFigures), row);
      addLlm(
        getOr(models, model, () => ({ calls: 0, prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0, cost: 0 })),
        row,
      );
      const tokens = row.prompt_tokens + row.completion_tokens;
      const perUser = userDay(row.day, row.user_id);
      perUser.cost += row.cost;
      perUser.tokens += tokens;
      const perModel = getOr(modelDays, `${row.day} ${model}`, () => ({ day: row.day, model, cost: 0, tokens: 0 }));
      perModel.cost += row.cost;
      perModel.tokens += tokens;
    }
    for (const run of runs) {
      for (const [day, seconds] of secondsByDay(run.started_at, run.ended_at, fromIso, toIso)) {
        getOr(days, day, zeroFigures).sandbox_seconds += seconds;
        getOr(users, run.user_id, zeroFigures).sandbox_seconds += seconds;
        userDay(day, run.user_id).sandbox_seconds += seconds;
        runtimes.set(run.runtime, (runtimes.get(run.runtime) ?? 0) + seconds);
      }
    }
    for (const row of starts) {
      getOr(days, row.day, zeroFigures).conversations += row.conversations;
      getOr(users, row.user_id, zeroFigures).conversations += row.conversations;
    }

    const known = new Map(people.map((person) => [person.id, person]));
    // Everyone with something in the range, and everyone the caller sees who has a budget.
    for (const person of people) if (person.monthly_cost_limit !== null) getOr(users, person.id, zeroFigures);
    const totals = zeroFigures();
    for (const figures of users.values()) {
      addLlm(totals, figures);
      totals.sandbox_seconds += figures.sandbox_seconds;
      totals.conversations += figures.conversations;
    }
    const rounded = <T extends { cost: number }>(figures: T): T => ({ ...figures, cost: dollars(figures.cost) });

    return {
      from,
      to,
      user_id: whose,
      days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, figures]): UsageDay => rounded({ day, ...figures })),
      totals: rounded(totals),
      users: [...users.entries()]
        .map(([userId, figures]): UsageUser => {
          const person = known.get(userId);
          return rounded({
            user_id: userId,
            name: person?.name ?? null,
            email: person?.email ?? null,
            ...figures,
            month_cost: dollars(monthCosts.get(userId) ?? 0),
            monthly_cost_limit: person?.monthly_cost_limit ?? null,
          });
        })
        .sort((a, b) => b.cost - a.cost || b.sandbox_seconds - a.sandbox_seconds || a.user_id.localeCompare(b.user_id)),
      models: [...models.entries()]
        .map(([model, figures]) => rounded({ model, ...figures }))
        .sort((a, b) => b.cost - a.cost || b.prompt_tokens + b.completion_tokens - (a.prompt_tokens + a.completion_tokens)),
      runtimes: [...runtimes.entries()].map(([runtime, seconds]) => ({ runtime, sandbox_seconds: seconds })),
      by_user_day: [...userDays.values()].map(rounded).sort((a, b) => a.day.localeCompare(b.day) || a.user_id.localeCompare(b.user_id)),
      by_model_day: [...modelDays.values()].map(rounded).sort((a, b) => a.day.localeCompare(b.day) || a.model.localeCompare(b.model)),
    };
  }

  async #user(caller: Caller, id: string): Promise<UserRecord[]> {
    const user = await this.data.as(caller).users.get(id);
    return user ? [user] : [];
  }

  /** The same figures as CSV: a row per day and user with anything used, in day order. */
  async csv(caller: Caller, query: UsageQuery): Promise<string> {
    const usage = await this.usage(caller, query);
    const { from, to } = usage;
    const llm = await this.data.as(caller).usage.llmByDay(query.user_id, startOf(from), startOf(dayAfter(to)));
    const emails = new Map(usage.users.map((user) => [user.user_id, user.email ?? '']));
    const rows = new Map<string, { day: string; user_id: string } & Figures>();
    const row = (day: string, userId: string) => getOr(rows, `${day} ${userId}`, () => ({ day, user_id: userId, ...zeroFigures() }));
    for (const call of llm) addLlm(row(call.day, call.user_id), call);
    for (const perUser of usage.by_user_day) row(perUser.day, perUser.user_id).sandbox_seconds += perUser.sandbox_seconds;
    const starts = await this.data.as(caller).usage.startsByDay(query.user_id, startOf(from), startOf(dayAfter(to)));
    for (const start of starts) row(start.day, start.user_id).conversations += start.conversations;
    const lines = [csvLine([...USAGE_CSV_COLUMNS])];
    for (const figures of [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.user_id.localeCompare(b.user_id)))
      lines.push(
        csvLine([
          figures.day,
          figures.user_id,
          emails.get(figures.user_id) ?? '',
          figures.calls,
          figures.prompt_tokens,
          figures.completion_tokens,
          figures.cache_read_tokens,
          dollars(figures.cost),
          Math.round((figures.sandbox_seconds / 3600) * 1000) / 1000,
          figures.conversations,
        ]),
      );
    return `${lines.join('\r\n')}\r\n`;
  }

  /** Refuses a conversation start of `userId` once this month's LLM costs reached the monthly limit an admin set them. */
  async refuseOverBudget(userId: string): Promise<void> {
    const data = this.data.as(asSystem('check a start against the budget', userId));
    const limit = (await data.users.get(userId))?.monthly_cost_limit;
    if (limit === null || limit === undefined) return;
    const spent = (await data.usage.costSince(userId, monthStart(this.clock()))).get(userId) ?? 0;
    if (spent >= limit) {
      const [used, budget] = [`$${spent.toFixed(2)}`, `$${limit.toFixed(2)}`];
      throw new OverBudget(
        msg`You have used ${used} of your monthly budget of ${budget} (a limit an admin set for you): no new conversation can start until next month or until an admin raises it`,
      );
    }
  }

  /** Records that `userId` started conversation `conversationId` (the usage page counts starts per day). */
  async recordStart(userId: string, conversationId: string): Promise<void> {
    await this.data
      .as(asSystem('record a conversation start', userId))
      .usage.recordStart({ user_id: userId, conversation_id: conversationId, created_at: this.clock().toISOString() });
  }
}
