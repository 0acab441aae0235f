import {
  type SolvabilityEstimate,
  solvabilityEstimateSchema,
  type SolvabilityRequestInput,
  type SuggestedTask,
  suggestedTasksSchema,
} from '../contract/suggested-tasks';
import { apiRequest } from './client';

/** Tasks from the user's git providers: pull requests that need something, and issues assigned to them. */
export const fetchSuggestedTasks = (signal?: AbortSignal): Promise<SuggestedTask[]> =>
  apiRequest('/api/user/suggested-tasks', { schema: suggestedTasksSchema, signal });

/** How likely the agent is to solve an issue, as the user's LLM estimates it (ours). */
export const estimateSolvability = (request: SolvabilityRequestInput, signal?: AbortSignal): Promise<SolvabilityEstimate> =>
  apiRequest('/api/user/solvability', { method: 'POST', body: request, schema: solvabilityEstimateSchema, signal });
