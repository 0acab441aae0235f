import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MODEL } from '../../../src/contract/demo-model';
import { type FakeProviderApi, startFakeProviderApi } from '../../../test-support/git/fake-provider-api';
import { type OpenAiStub, startOpenAiStub, type StubReply } from '../../testing/openai-stub';
import { startTestApp, type TestApp } from '../../testing/test-app';

const LLM_KEY = 'sk-solvability-5d2c8e1a';

let t: TestApp;
let api: FakeProviderApi;
let llm: OpenAiStub;
let log: string;
beforeEach(async () => {
  log = '';
  t = await startTestApp({ logStream: { write: (line: string) => void (log += line) } });
  api = await startFakeProviderApi('good-token');
  llm = await startOpenAiStub();
});
afterEach(async () => {
  await t.close();
  await api.close();
  await llm.close();
});

const connect = async (provider: string, token = 'good-token') => {
  const response = await t.request({
    method: 'POST',
    url: '/api/add-git-providers',
    payload: JSON.stringify({ provider_tokens: { [provider]: { token, host: api.url } } }),
    headers: { 'content-type': 'application/json' },
  });
  expect(response.statusCode).toBe(200);
};
const useStubLlm = () => t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: LLM_KEY });
const estimate = async (body: object) => {
  const response = await t.request({
    method: 'POST',
    url: '/api/user/solvability',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.statusCode, body: response.json(), text: response.body };
};
/** The model's answer, as the forced call it is asked for. */
const answer = (args: object): StubReply => ({ toolCalls: [{ name: 'solvability_estimate', arguments: args }] });

describe('POST /api/user/solvability', () => {
  it("has the user's model estimate a suggested issue from its text, and gives the issue as a task to start", async () => {
    await connect('github');
    await useStubLlm();
    llm.enqueue(
      answer({
        score: 0.82,
        summary: 'The jam is reproducible with one card and says where it happens.',
        actionable_feedback: ['Attach the card that jams'],
        positive_feedback: '- Clear steps to reproduce\n- Expected and actual behaviour',
      }),
    );
    const { status, body } = await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 4 });
    expect(status).toBe(200);
    expect(body).toEqual({
      task: {
        git_provider: 'github',
        task_type: 'OPEN_ISSUE',
        repo: 'ada/engine',
        issue_number: 4,
        title: 'Punch cards jam in the reader',
        branch: 'main',
        url: `${api.url}/ada/engine/issues/4`,
        prompt: expect.stringMatching(/^You are working on Issue #4 in repository ada\/engine\. Your goal is to fix the issue\./),
      },
      score: 0.82,
      difficulty: 'EASY',
      summary: 'The jam is reproducible with one card and says where it happens.',
      actionable_feedback: ['Attach the card that jams'],
      positive_feedback: ['Clear steps to reproduce', 'Expected and actual behaviour'],
      model: 'stub-model',
    });
    // One call with the settings' model and key, forced to the one tool, the issue's text, labels and comments in it.
    expect(llm.requests).toHaveLength(1);
    const [sent] = llm.requests;
    expect(sent!.model).toBe('stub-model');
    expect(sent!.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(sent!.body.tool_choice).toEqual({ type: 'function', function: { name: 'solvability_estimate' } });
    expect(sent!.tools?.map((tool) => tool.function.name)).toEqual(['solvability_estimate']);
    const issueText = String(sent!.messages[1]!.content);
    expect(issueText).toContain('Issue #4: Punch cards jam in the reader');
    expect(issueText).toContain('Labels: bug, reader');
    expect(issueText).toContain('Expected: read; actual: jam at column 12.');
    expect(issueText).toContain('- charles: Seen it too, only with the thicker cards.');
    expect(log).not.toContain(LLM_KEY);
  });

  it.each([
    ['github', '/ada/engine/issues/4', 'ada/engine', 4, 'main', 0.5, 'MEDIUM', 'Cards with more than 40 holes jam.'],
    ['gitlab', '/navy/cobol/-/issues/3', 'navy/cobol', 3, 'master', 0.69, 'MEDIUM', '- ada: Taped it into the log book.'],
    ['bitbucket', '/turing/bombe/issues/7/drum-wiring-drifts', 'turing/bombe', 7, 'main', 0.2, 'HARD', '- Joan C: It drifts after an hour'],
  ] as const)('reads an issue of %s by its address', async (provider, path, repo, number, branch, score, difficulty, read) => {
    await connect(provider);
    await useStubLlm();
    llm.enqueue(answer({ score, summary: 'Hard to say.', actionable_feedback: [], positive_feedback: [] }));
    const { status, body } = await estimate({ issue_url: `${api.url}${path}` });
    expect(status).toBe(200);
    expect(body).toMatchObject({ task: { git_provider: provider, repo, issue_number: number, branch }, score, difficulty });
    expect(String(llm.requests[0]!.messages[1]!.content)).toContain(read);
    // System notes ("changed the description") are not the issue's words.
    expect(String(llm.requests[0]!.messages[1]!.content)).not.toContain('changed the description');
  });

  it('takes an estimate a model gives as JSON in words, and says so when it gives none', async () => {
    await connect('github');
    await useStubLlm();
    llm.enqueue({
      text: 'Here it is: {"score": 0.3, "summary": "Vague.", "actionable_feedback": ["Say which card"], "positive_feedback": []}',
    });
    expect((await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 4 })).body).toMatchObject({
      score: 0.3,
      difficulty: 'HARD',
      actionable_feedback: ['Say which card'],
    });
    llm.enqueue({ text: 'I think it is fine.' });
    const none = await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 4 });
    expect(none.status).toBe(503);
    expect(none.body.detail).toBe(
      'The LLM could not estimate solvability. openai/stub-model did not answer with an estimate: try again, or choose another model under Settings › LLM.',
    );
    llm.enqueue(answer({ score: 7, summary: 'Out of ten?' }));
    expect((await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 4 })).status).toBe(503);
  });

  it('says why when the LLM refuses, never with its key', async () => {
    await connect('github');
    await useStubLlm();
    llm.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${LLM_KEY}` } } });
    const { status, body, text } = await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 4 });
    expect(status).toBe(503);
    expect(body.detail).toMatch(/^The LLM could not estimate solvability\. The provider rejected the API key \(HTTP 401: /);
    expect(text).not.toContain(LLM_KEY);
    expect(log).not.toContain(LLM_KEY);
  });

  it('refuses an address that is not an issue of a connected provider (422), before asking anyone', async () => {
    await connect('github');
    await useStubLlm();
    for (const [url, msg] of [
      ['issue 4', "Expected an issue's address, such as https://github.com/owner/repo/issues/1"],
      ['ftp://example.com/ada/engine/issues/4', "Expected an issue's address, such as https://github.com/owner/repo/issues/1"],
      [
        `${api.url}/ada/engine/pull/12`,
        `Expected the address of an issue on GitHub as connected under Settings → Git, such as ${api.url}/owner/repo/issues/1`,
      ],
      [
        'https://github.com/ada/engine/issues/4',
        `Expected the address of an issue on GitHub as connected under Settings → Git, such as ${api.url}/owner/repo/issues/1`,
      ],
      [
        `${api.url}/ada/../issues/4/x`,
        `Expected the address of an issue on GitHub as connected under Settings → Git, such as ${api.url}/owner/repo/issues/1`,
      ],
    ]) {
      const { status, body } = await estimate({ issue_url: url });
      expect(status, url).toBe(422);
      expect(body.detail, url).toEqual([expect.objectContaining({ loc: ['body', 'issue_url'], msg: `Value error, ${msg}` })]);
    }
    const nothing = await estimate({});
    expect(nothing.status).toBe(422);
    expect(nothing.body.detail.map((entry: { loc: string[] }) => entry.loc)).toEqual([
      ['body', 'git_provider'],
      ['body', 'repo'],
      ['body', 'issue_number'],
    ]);
    expect((await estimate({ git_provider: 'gitlab', repo: 'navy/cobol', issue_number: 3 })).body.detail[0]).toMatchObject({
      loc: ['body', 'git_provider'],
      msg: 'Value error, No GitLab token is connected: add one under Settings → Git',
    });
    expect((await estimate({ git_provider: 'github', repo: 'ada/../x', issue_number: 3 })).status).toBe(422);
    expect(llm.requests).toHaveLength(0);
    expect(api.requests.filter((path) => path.includes('/issues/'))).toEqual([]);
  });

  it('says how to set up an LLM when none is, or only the demo model; and that the setting is off when it is (409)', async () => {
    await connect('github');
    const issue = { git_provider: 'github', repo: 'ada/engine', issue_number: 4 };
    const noLlm = await estimate(issue);
    expect(noLlm.status).toBe(409);
    expect(noLlm.body.detail).toBe('No LLM is set up: choose a model and its key under Settings › LLM to estimate solvability');
    await t.postSettings({ llm_model: DEMO_MODEL });
    expect((await estimate(issue)).body.detail).toBe(
      'The demo model cannot read an issue: choose an LLM and its key under Settings › LLM to estimate solvability',
    );
    await useStubLlm();
    await t.postSettings({ enable_solvability_analysis: false });
    const off = await estimate(issue);
    expect(off.status).toBe(409);
    expect(off.body.detail).toBe('Solvability analysis is off: turn it on under Settings › Preferences');
    expect(llm.requests).toHaveLength(0);
  });

  it('says when the issue is not there (404) or the token is refused (409)', async () => {
    await connect('github');
    await useStubLlm();
    const missing = await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 99 });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('GitHub has no issue #99 in ada/engine that the connected token may see');
    await connect('github', 'revoked');
    const refused = await estimate({ git_provider: 'github', repo: 'ada/engine', issue_number: 4 });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('GitHub refused the stored token (HTTP 401): connect a new one under Settings → Git');
  });
});
