import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmPrices } from '../../llm-prices';
import { OptionsService } from './options-service';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('GET /api/options/*', () => {
  it('lists the models with a price (with their provider) and the demo model', async () => {
    const response = await t.request({ method: 'GET', url: '/api/options/models' });
    expect(response.statusCode).toBe(200);
    const models: string[] = response.json();
    expect(models).toEqual(
      expect.arrayContaining(['anthropic/claude-sonnet-4-5-20250929', 'openai/gpt-5', 'gemini/gemini-2.5-pro', 'demo/scripted']),
    );
    expect(new Set(models).size).toBe(models.length);
  });

  it("offers the one agent the agent server runs, and OpenHands' LLM security analyzer", async () => {
    expect((await t.request({ method: 'GET', url: '/api/options/agents' })).json()).toEqual(['CodeActAgent']);
    expect((await t.request({ method: 'GET', url: '/api/options/security-analyzers' })).json()).toEqual(['llm']);
  });

  it('names in its OpenAPI document the Settings it stores but does not act on, each with why; on Docker it uses the images and resource factor', async () => {
    const notUsed: Record<string, string> = (await t.request({ method: 'GET', url: '/openapi.json' })).json().info['x-settings-not-used'];
    expect(Object.keys(notUsed)).toEqual(
      expect.arrayContaining([
        'sandbox_api_key',
        'user_consents_to_analytics',
        'v1_enabled',
        'remote_runtime_resource_factor',
        'sandbox_runtime_container_image',
        'sandbox_base_container_image',
      ]),
    );
    // Clauses the page puts after "Not used by this server: ".
    for (const reason of Object.values(notUsed)) expect(reason).toMatch(/^\S.{10,}[^.]$/);
    // The console is shown in it, and the agent answers in it.
    expect(notUsed).not.toHaveProperty('language');
    expect(notUsed.user_consents_to_analytics).toMatch(/collects no analytics/);
    expect(notUsed.sandbox_base_container_image).toMatch(/process sandboxes/);
    // The agent searches the web with it.
    expect(notUsed).not.toHaveProperty('search_api_key');
    // The account's email is the signed-in user's: used.
    expect(notUsed).not.toHaveProperty('email');
    expect(notUsed).not.toHaveProperty('email_verified');
    expect(notUsed).not.toHaveProperty('llm_model');
    expect(notUsed).not.toHaveProperty('enable_sound_notifications');
    // Conversations suggests tasks, and estimates an issue's solvability before a start.
    expect(notUsed).not.toHaveProperty('enable_proactive_conversation_starters');
    expect(notUsed).not.toHaveProperty('enable_solvability_analysis');
    const onDocker = new OptionsService(new LlmPrices(), 'docker').settingsNotUsed();
    for (const used of ['remote_runtime_resource_factor', 'sandbox_runtime_container_image', 'sandbox_base_container_image'])
      expect(onDocker).not.toHaveProperty(used);
    expect(onDocker).toHaveProperty('v1_enabled');
  });

  it("returns the config OpenHands' web client reads first: oss mode, no client ids or keys, every feature flag off", async () => {
    const response = await t.request({ method: 'GET', url: '/api/options/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      APP_MODE: 'oss',
      GITHUB_CLIENT_ID: '',
      POSTHOG_CLIENT_KEY: '',
      FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false, ENABLE_JIRA: false, ENABLE_JIRA_DC: false, ENABLE_LINEAR: false },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/options/config' })).statusCode).toBe(401);
  });

  it('needs the session key', async () => {
    const response = await t.request({ method: 'GET', url: '/api/options/agents', headers: { 'X-Session-API-Key': 'wrong' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('OptionsService', () => {
  it('offers models added by LLM_PRICES_FILE as they are named there', () => {
    const options = new OptionsService(new LlmPrices({ 'ollama/qwen3-coder:30b': { input: 0, output: 0, cache_read: null } }));
    expect(options.list('models')).toContain('ollama/qwen3-coder:30b');
  });
});
