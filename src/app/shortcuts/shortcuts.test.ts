import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { ignoredPress, SEQUENCE_PAUSE_MS, shortcutMatcher } from './shortcuts';

const press = (overrides: Partial<Parameters<typeof ignoredPress>[0]> = {}) => ({
  key: 'g',
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  target: document.body,
  ...overrides,
});

/** Feeds `keys` 100 ms apart and returns what each completes. */
function feed(keys: string[], start = 0) {
  const match = shortcutMatcher();
  return keys.map((key, i) => {
    const description = match(key, start + i * 100)?.description;
    return description && i18n._(description);
  });
}

describe('shortcutMatcher', () => {
  it('matches single keys and two-key sequences', () => {
    expect(feed(['/'])).toEqual(["Focus the page's search"]);
    expect(feed(['?'])).toEqual(['Show the keyboard shortcuts']);
    expect(feed(['g', 's', 'g', 'c', 'g', 'b'])).toEqual([
      undefined,
      'Go to Settings',
      undefined,
      'Go to Conversations',
      undefined,
      'Go to Sandboxes',
    ]);
  });

  it('ignores keys that are no shortcut, and a key that breaks a sequence starts over', () => {
    expect(feed(['s', 'x', 'c'])).toEqual([undefined, undefined, undefined]);
    expect(feed(['g', 'x', 's'])).toEqual([undefined, undefined, undefined]);
    expect(feed(['g', 'g', 's'])).toEqual([undefined, undefined, 'Go to Settings']);
    expect(feed(['g', '/'])).toEqual([undefined, "Focus the page's search"]);
  });

  it('forgets the start of a sequence after a long pause', () => {
    const match = shortcutMatcher();
    expect(match('g', 0)).toBeUndefined();
    expect(match('s', SEQUENCE_PAUSE_MS + 1)).toBeUndefined();
    expect(match('g', SEQUENCE_PAUSE_MS + 2)).toBeUndefined();
    const description = match('s', SEQUENCE_PAUSE_MS + 3)?.description;
    expect(description && i18n._(description)).toBe('Go to Settings');
  });
});

describe('ignoredPress', () => {
  it('lets plain presses on the page through, Shift included (it makes "?")', () => {
    expect(ignoredPress(press())).toBe(false);
    expect(ignoredPress(press({ key: '?' }))).toBe(false);
  });

  it('ignores presses with Ctrl, Alt or ⌘, and held keys', () => {
    expect(ignoredPress(press({ ctrlKey: true }))).toBe(true);
    expect(ignoredPress(press({ altKey: true }))).toBe(true);
    expect(ignoredPress(press({ metaKey: true }))).toBe(true);
    expect(ignoredPress(press({ repeat: true }))).toBe(true);
  });

  it('ignores presses in inputs, textareas, selects, editable content, and while a dialog is open', () => {
    document.body.innerHTML = `
      <input id="input" /><textarea id="textarea"></textarea><select id="select"></select>
      <div contenteditable="true"><span id="editable">text</span></div><button id="button">ok</button>`;
    for (const id of ['input', 'textarea', 'select', 'editable']) {
      expect(ignoredPress(press({ target: document.getElementById(id) })), id).toBe(true);
    }
    expect(ignoredPress(press({ target: document.getElementById('button') }))).toBe(false);

    document.body.insertAdjacentHTML('beforeend', '<div role="dialog" aria-modal="true"><button id="in-dialog">Cancel</button></div>');
    // Also a press from outside it (focus left the dialog): the page under it stays where it is.
    for (const id of ['in-dialog', 'button']) expect(ignoredPress(press({ target: document.getElementById(id) })), id).toBe(true);
    expect(ignoredPress(press({ target: document.body }))).toBe(true);
  });
});
