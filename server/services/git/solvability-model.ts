import type OpenAI from 'openai';
import * as z from 'zod/mini';
import { wireModelName } from '../../agent-server/contract';
import type { Issue } from '../../git-providers/issues';

/*
 * What the user's model is asked about an issue, and how its answer is read. OpenHands'
 * solvability analysis (enterprise `integrations/solvability` at the pinned commit) has the model
 * mark 42 features of the issue, scores them with a trained classifier, and has the model word a
 * summary (`SolvabilitySummary`: a summary of at most two sentences, actionable and positive
 * feedback) for the difficulty the score gives. Without its classifier, the model here weighs
 * the same features itself and gives the score, in one call forced to one tool, as OpenHands'
 * calls are.
 */

export const SOLVABILITY_TOOL = 'solvability_estimate';

const SYSTEM = `You estimate whether an AI software agent can resolve an issue of a git repository on its own. The agent works alone in a sandbox with the repository checked out: it reads and edits code, runs commands and tests, and cannot ask anyone anything.
Judge from the issue's text alone (title, description, labels, comments); do not assume what it does not say.
What makes an issue easier: specific error messages or stack traces; clear, step-by-step reproduction; expected and actual behaviour both stated; relevant code snippets; a minimal, isolated reproduction; a fix likely confined to one function or a small part of the code; a clear, isolated cause; standard patterns; simple, direct language.
What makes it harder: uncertain language ('might', 'sometimes', 'unclear why'); behaviour that varies, or appears only on some platforms, environments or data; interactions between several components or systems; specialised domain knowledge; historical context or undocumented assumptions; performance, memory or resource work; encodings, parsing or complex data formats; an issue phrased as a question; previous attempts that failed.
Call ${SOLVABILITY_TOOL} once. The score is the probability, from 0 to 1, that the agent resolves the issue. From 0.7 the issue is EASY, from 0.4 MEDIUM, below that HARD: word everything for that difficulty (never call a HARD issue straightforward).
Never mention scores, probabilities or these criteria by name in the texts.`;

const TOOL = {
  type: 'function' as const,
  function: {
    name: SOLVABILITY_TOOL,
    description: 'Record how likely the agent is to resolve the issue, and why.',
    parameters: {
      type: 'object',
      properties: {
        score: {
          type: 'number',
          minimum: 0,
          maximum: 1,
          description: 'The probability, from 0 to 1, that the agent resolves the issue on its own.',
        },
        summary: { type: 'string', description: 'At most two sentences: what makes the issue easy or hard to resolve.' },
        actionable_feedback: {
          type: 'array',
          items: { type: 'string' },
          description: "One to three things the issue's author could add (information only) to make it easier to resolve.",
        },
        positive_feedback: {
          type: 'array',
          items: { type: 'string' },
          description: 'One to three things in the issue that already help resolve it.',
        },
      },
      required: ['score', 'summary', 'actionable_feedback', 'positive_feedback'],
    },
  },
};

/** The issue as the model reads it. */
export function issueMessage(issue: Issue): string {
  const parts = [`Repository: ${issue.repo}`, `Issue #${issue.number}: ${issue.title}`];
  if (issue.labels.length > 0) parts.push(`Labels: ${issue.labels.join(', ')}`);
  parts.push(`Description:\n${issue.body || '(none)'}`);
  if (issue.comments.length > 0) parts.push(`Comments:\n${issue.comments.map((c) => `- ${c.author}: ${c.body}`).join('\n')}`);
  return parts.join('\n\n');
}

/** A list the model may give as a list, or as one bulleted text. */
const feedback = z.pipe(
  z.union([z.array(z.string()), z.string()]),
  z.transform((value: string[] | string) =>
    (typeof value === 'string' ? value.split('\n') : value)
      .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
      .filter(Boolean),
  ),
);

const answerSchema = z.object({
  score: z.number().check(z.gte(0), z.lte(1)),
  summary: z.string().check(z.trim(), z.minLength(1)),
  actionable_feedback: z._default(feedback, []),
  positive_feedback: z._default(feedback, []),
});
export type SolvabilityAnswer = z.output<typeof answerSchema>;

/** The model could not be asked, or refused: `error` is the client's. */
export class ModelCallFailed extends Error {
  constructor(readonly error: unknown) {
    super('The LLM request failed');
  }
}

/** The model answered, but not with an estimate. */
export class NoEstimate extends Error {}

/** The arguments of the forced call, or a JSON object in the text of a model that answered in words instead. */
function answerOf(message: OpenAI.Chat.Completions.ChatCompletionMessage | undefined): unknown {
  const call = message?.tool_calls?.find((c) => c.type === 'function' && c.function.name === SOLVABILITY_TOOL);
  const raw = call?.type === 'function' ? call.function.arguments : /\{[\s\S]*\}/.exec(message?.content ?? '')?.[0];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export interface ModelSettings {
  model: string;
  url: string;
  apiKey: string | null;
  timeoutMs: number;
}

/** Asks the model for its estimate of `issue`. */
export async function askForEstimate(settings: ModelSettings, issue: Issue): Promise<SolvabilityAnswer & { model: string }> {
  // Loaded at the first estimate, not at every server start.
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({
    // Endpoints without keys (a local model server) still get a header; the client wants one.
    apiKey: settings.apiKey ?? 'no-key',
    baseURL: settings.url,
    maxRetries: 1,
    timeout: settings.timeoutMs,
    logLevel: 'off',
  });
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  try {
    completion = await client.chat.completions.create({
      model: wireModelName(settings.model),
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: issueMessage(issue) },
      ],
      tools: [TOOL],
      tool_choice: { type: 'function', function: { name: SOLVABILITY_TOOL } },
    });
  } catch (error) {
    throw new ModelCallFailed(error);
  }
  const answer = answerSchema.safeParse(answerOf(completion.choices[0]?.message));
  if (!answer.success) throw new NoEstimate('The model did not answer with an estimate');
  return { ...answer.data, model: completion.model || settings.model };
}
