import * as z from 'zod/mini';
import { integer } from '../../src/contract/rules';

/*
 * The agent's web search, as the agent server asks the app server for it (`POST` to the
 * `web_search.url` of its start request, `Authorization: Bearer <web_search.api_key>`): Tavily's
 * search request, the part of it the tool offers, and Tavily's results. The app server adds the
 * user's key and sends it to Tavily (`POST /search`); the key never reaches the sandbox.
 */

/** Ours, in the start request: where the sandbox reaches the app server's search route, and the conversation's token for it. */
export const webSearchToolSchema = z.object({ url: z.string(), api_key: z.string() });
export type WebSearchTool = z.output<typeof webSearchToolSchema>;

/** Tavily's `POST /search` body, as far as the tool offers it (Tavily's own limits). */
export const webSearchRequestSchema = z.object({
  query: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
  search_depth: z.optional(z.enum(['basic', 'advanced'])),
  topic: z.optional(z.enum(['general', 'news', 'finance'])),
  time_range: z.optional(z.enum(['day', 'week', 'month', 'year'])),
  max_results: z.optional(integer().check(z.gte(1), z.lte(20))),
  include_domains: z.optional(z.array(z.string().check(z.maxLength(300))).check(z.maxLength(300))),
  exclude_domains: z.optional(z.array(z.string().check(z.maxLength(300))).check(z.maxLength(150))),
});
export type WebSearchRequest = z.output<typeof webSearchRequestSchema>;

/** One result of Tavily's response; what else it holds is left out. */
const webSearchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  content: z.string(),
  score: z.optional(z.nullable(z.number())),
  published_date: z.optional(z.nullable(z.string())),
});

/** Tavily's search response, as the app server passes it on. */
export const webSearchResultsSchema = z.object({
  query: z.string(),
  answer: z.optional(z.nullable(z.string())),
  results: z.array(webSearchResultSchema),
});
export type WebSearchResults = z.output<typeof webSearchResultsSchema>;
