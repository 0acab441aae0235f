import '@testing-library/jest-dom/vitest';
import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy and waitFor wait longer than the default second: code loaded on demand (markdown, overlays)
// can take more than that to import while other suites share the machine's cores.
configure({ asyncUtilTimeout: 5000 });

// Views render their English source text, compiled as they run: a test does not wait for
// catalogs, and `npm run i18n:check` keeps the catalogs whole.
i18n.setMessagesCompiler(compileMessage);
i18n.loadAndActivate({ locale: 'en', messages: {} });

// Test files share one document (isolate: false): what a test wrote into the body
// itself, beside what React rendered, must not outlive it.
afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  localStorage.clear();
  vi.unstubAllGlobals();
});

// Mantine reads these browser APIs that jsdom does not have.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    addListener: vi.fn(),
    removeListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
// jsdom lays nothing out, so there is nothing to scroll.
Element.prototype.scrollIntoView = vi.fn();
// Mantine's autosizing Textarea measures again when fonts load.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: vi.fn(), removeEventListener: vi.fn() } });
}
