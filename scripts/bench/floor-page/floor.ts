/*
 * The least a page made with the console's libraries can be: React and Mantine (with the same
 * stylesheet) rendering one input with the value the settings row waits for. No router, no data,
 * no form library. Built by the bench beside the console (see build-floor-page.ts).
 */
import '@mantine/core/styles.css';
import { MantineProvider, TextInput } from '@mantine/core';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (!root) throw new Error('floor.html has no #root element');
createRoot(root).render(
  createElement(MantineProvider, null, createElement(TextInput, { label: 'LLM model', name: 'llm_model', defaultValue: 'openai/gpt-4o' })),
);
