import { msg } from '@lingui/core/macro';
import type { Caller } from '../../authz/caller';
import { DEMO_MODEL } from '../../../src/contract/demo-model';
import { PROVIDER_NAMES } from '../../../src/contract/secrets';
import {
  difficultyOf,
  type SolvabilityEstimate,
  type SolvabilityRequest,
  TASK_PROVIDERS,
  type TaskProvider,
} from '../../../src/contract/suggested-tasks';
import { Conflict, Invalid, NotFound, Unavailable, verbatim } from '../../domain-errors';
import { fetchIssue, type Issue, type IssueRef, issueOfUrl, issueUrl } from '../../git-providers/issues';
import { type ProviderAccount, ProviderNotFound, ProviderRefusedToken, ProviderUnreachable } from '../../git-providers/provider-http';
import { promptForTask } from '../../git-providers/suggested-task-prompts';
import { llmEndpoint, rootCause, shownUrl } from '../../llm-endpoint';
import type { Logger } from '../../logger';
import type { SecretsService } from '../secrets/secrets-service';
import { describeLlmFailure, masked } from '../settings/llm-test-service';
import type { SettingsService } from '../settings/settings-service';
import { askForEstimate, ModelCallFailed, NoEstimate } from './solvability-model';

const ESTIMATE_SECONDS = 60;
const ISSUE_URL_EXAMPLE = 'https://github.com/owner/repo/issues/1';

const isTaskProvider = (provider: string): provider is TaskProvider => (TASK_PROVIDERS as readonly string[]).includes(provider);

/**
 * `POST /api/user/solvability` (ours): how likely the agent is to resolve an issue on its own, and
 * why, as the user's model (their settings' model, base URL and key) estimates it from the issue's
 * text; OpenHands Cloud's solvability analysis, which `enable_solvability_analysis` turns on. The
 * issue is read with the user's token of the provider that has it.
 */
export class SolvabilityService {
  constructor(
    private readonly settings: SettingsService,
    private readonly secrets: SecretsService,
    private readonly log: Logger,
    private readonly timeoutMs = ESTIMATE_SECONDS * 1000,
  ) {}

  async estimate(caller: Caller, request: SolvabilityRequest): Promise<SolvabilityEstimate> {
    const tokens = await this.secrets.readProviderTokens(caller);
    const accounts = tokens.flatMap((t): ProviderAccount<TaskProvider>[] =>
      isTaskProvider(t.provider) ? [{ provider: t.provider, token: t.token, host: t.host }] : [],
    );
    const { account, ref } = this.#issueOf(request, accounts);

    const settings = await this.settings.readWithSecrets(caller);
    if (settings && !settings.enable_solvability_analysis) {
      throw new Conflict(msg`Solvability analysis is off: turn it on under Settings › Preferences`);
    }
    const model = settings?.llm_model?.trim();
    if (!model || model === DEMO_MODEL) {
      throw new Conflict(
        model === DEMO_MODEL
          ? msg`The demo model cannot read an issue: choose an LLM and its key under Settings › LLM to estimate solvability`
          : msg`No LLM is set up: choose a model and its key under Settings › LLM to estimate solvability`,
      );
    }

    const issue = await this.#read(account, ref);
    const url = llmEndpoint(settings?.llm_base_url);
    const apiKey = settings?.llm_api_key || null;
    let answer;
    try {
      answer = await askForEstimate({ model, url, apiKey, timeoutMs: this.timeoutMs }, issue);
    } catch (error) {
      const reason =
        error instanceof ModelCallFailed
          ? (await describeLlmFailure(error.error, model, shownUrl(url), this.timeoutMs / 1000)).replace(/https?:\/\/[^\s)]+/g, shownUrl)
          : error instanceof NoEstimate
            ? `${model} did not answer with an estimate: try again, or choose another model under Settings › LLM.`
            : `The estimate failed: ${rootCause(error)}.`;
      this.log.warn({ model, url: shownUrl(url), reason: masked(reason, apiKey) }, 'solvability estimate failed');
      const shownReason = masked(reason, apiKey);
      throw new Unavailable(msg`The LLM could not estimate solvability. ${shownReason}`);
    }
    this.log.info(
      { model, provider: account.provider, repo: issue.repo, issue: issue.number, score: answer.score },
      'solvability estimated',
    );
    return {
      task: {
        git_provider: account.provider,
        task_type: 'OPEN_ISSUE',
        repo: issue.repo,
        issue_number: issue.number,
        title: issue.title,
        branch: issue.defaultBranch,
        url: issue.url ?? issueUrl(account.provider, account.host, issue),
        prompt: promptForTask(account.provider, 'OPEN_ISSUE', issue.number, issue.repo),
      },
      score: answer.score,
      difficulty: difficultyOf(answer.score),
      summary: masked(answer.summary, apiKey),
      actionable_feedback: answer.actionable_feedback.map((line) => masked(line, apiKey)),
      positive_feedback: answer.positive_feedback.map((line) => masked(line, apiKey)),
      model: answer.model,
    };
  }

  /** The connected provider and issue the request names (an address on one of them, or a task's provider, repository and number). */
  #issueOf(
    request: SolvabilityRequest,
    accounts: ProviderAccount<TaskProvider>[],
  ): { account: ProviderAccount<TaskProvider>; ref: IssueRef } {
    if (request.issue_url) {
      let url: URL;
      try {
        url = new URL(request.issue_url);
      } catch {
        throw new Invalid(['issue_url'], msg`Expected an issue's address, such as ${ISSUE_URL_EXAMPLE}`, request.issue_url);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new Invalid(['issue_url'], msg`Expected an issue's address, such as ${ISSUE_URL_EXAMPLE}`, request.issue_url);
      }
      for (const account of accounts) {
        const ref = issueOfUrl(account.provider, account.host, url);
        if (ref) return { account, ref };
      }
      if (accounts.length === 0) {
        throw new Invalid(
          ['issue_url'],
          msg`No GitHub, GitLab or Bitbucket is connected: connect the one with the issue under Settings → Git`,
          request.issue_url,
        );
      }
      const providers = accounts.map((a) => PROVIDER_NAMES[a.provider]).join(' or ');
      const example = issueUrl(accounts[0]!.provider, accounts[0]!.host, { repo: 'owner/repo', number: 1 });
      throw new Invalid(
        ['issue_url'],
        msg`Expected the address of an issue on ${providers} as connected under Settings → Git, such as ${example}`,
        request.issue_url,
      );
    }
    if (!request.git_provider || !request.repo || !request.issue_number) {
      const missing = ['git_provider', 'repo', 'issue_number'].filter((field) => !request[field as keyof SolvabilityRequest]);
      throw new Invalid(
        missing.map((field) => ({
          loc: [field],
          msg: msg`Name the issue: its address (issue_url), or its git_provider, repo and issue_number`,
        })),
      );
    }
    if (!isTaskProvider(request.git_provider)) {
      throw new Invalid(['git_provider'], msg`Issues are read from GitHub, GitLab and Bitbucket only`, request.git_provider);
    }
    const account = accounts.find((a) => a.provider === request.git_provider);
    if (!account) {
      const provider = PROVIDER_NAMES[request.git_provider];
      throw new Invalid(['git_provider'], msg`No ${provider} token is connected: add one under Settings → Git`, request.git_provider);
    }
    return { account, ref: { repo: request.repo, number: request.issue_number } };
  }

  async #read(account: ProviderAccount<TaskProvider>, ref: IssueRef): Promise<Issue> {
    const name = PROVIDER_NAMES[account.provider];
    try {
      return await fetchIssue(account, ref);
    } catch (error) {
      const { number, repo } = ref;
      if (error instanceof ProviderNotFound)
        throw new NotFound(msg`${name} has no issue #${number} in ${repo} that the connected token may see`);
      if (error instanceof ProviderRefusedToken) throw new Conflict(verbatim(error.message));
      if (error instanceof ProviderUnreachable) throw new Unavailable(verbatim(error.message));
      throw error;
    }
  }
}
