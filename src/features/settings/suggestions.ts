import { DEMO_MODEL } from '../../contract/demo-model';

/** Values offered while typing; every field also takes any other value. */

export const LLM_MODEL_SUGGESTIONS = [
  'anthropic/claude-sonnet-4-5-20250929',
  'anthropic/claude-opus-4-1-20250805',
  'openai/gpt-5-2025-08-07',
  'openai/gpt-5-mini-2025-08-07',
  'gemini/gemini-2.5-pro',
  'mistral/devstral-medium-2507',
  'openhands/claude-sonnet-4-5-20250929',
  'ollama/qwen3-coder:30b',
  /** The built-in demo: a scripted session, no LLM and no key. */
  DEMO_MODEL,
];

/** The languages OpenHands' own console offers, each named in itself: not translated. */
/* eslint-disable lingui/no-unlocalized-strings */
export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'zh-CN', label: '简体中文' },
  { value: 'zh-TW', label: '繁體中文' },
  { value: 'ko-KR', label: '한국어' },
  { value: 'ja', label: '日本語' },
  { value: 'no', label: 'Norsk' },
  { value: 'ar', label: 'العربية' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'it', label: 'Italiano' },
  { value: 'pt', label: 'Português' },
  { value: 'es', label: 'Español' },
  { value: 'tr', label: 'Türkçe' },
  { value: 'uk', label: 'Українська' },
];
/* eslint-enable lingui/no-unlocalized-strings */
