/*
 * The console's keyboard shortcuts: what each key sequence does, and when a key press is not
 * meant for them (typing in a field, or a press with Ctrl, Alt or ⌘). Pure, so it is tested
 * without a browser; `use-shortcuts.ts` connects it to the page.
 */

import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { PAGES } from '../pages';

export type ShortcutAction = { kind: 'search' } | { kind: 'go'; to: string } | { kind: 'help' };

export interface Shortcut {
  /** The keys, pressed one after the other (`KeyboardEvent.key` values). */
  keys: string[];
  description: MessageDescriptor;
  action: ShortcutAction;
}

export const SHORTCUTS: Shortcut[] = [
  { keys: ['/'], description: msg`Focus the page's search`, action: { kind: 'search' } },
  { keys: ['g', 's'], description: msg`Go to Settings`, action: { kind: 'go', to: PAGES.settings.path } },
  { keys: ['g', 'c'], description: msg`Go to Conversations`, action: { kind: 'go', to: PAGES.conversations.path } },
  { keys: ['g', 'b'], description: msg`Go to Sandboxes`, action: { kind: 'go', to: PAGES.sandboxes.path } },
  { keys: ['?'], description: msg`Show the keyboard shortcuts`, action: { kind: 'help' } },
];

/** The longest pause between the keys of a sequence before it starts over. */
export const SEQUENCE_PAUSE_MS = 1500;

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  repeat?: boolean;
  target: EventTarget | null;
}

/** Whether `target` takes typed text (or a choice by keys): a shortcut there would eat what someone types. */
function takesTyping(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"]') !== null;
}

/** Whether a dialog is open (the press may come from outside it, when focus left it): it owns the keyboard until it closes. */
function inDialog(target: EventTarget | null): boolean {
  if (typeof Element === 'undefined') return false;
  if (target instanceof Element && target.closest('[aria-modal="true"]') !== null) return true;
  return typeof document !== 'undefined' && document.querySelector('[aria-modal="true"]') !== null;
}

/**
 * A press that is not for the shortcuts: in a field or a dialog, with a modifier (Shift aside:
 * it makes `?`), or held down.
 */
export function ignoredPress(press: KeyPress): boolean {
  return press.ctrlKey || press.altKey || press.metaKey || press.repeat === true || takesTyping(press.target) || inDialog(press.target);
}

/**
 * Follows key presses and returns the shortcut a press completes. A key that continues no
 * sequence starts a new one, so `g g s` still goes to Settings.
 */
export function shortcutMatcher(shortcuts: Shortcut[] = SHORTCUTS) {
  let pending: string[] = [];
  let lastAt = -Infinity;
  const startsWith = (keys: string[]) => shortcuts.filter((s) => keys.every((key, i) => s.keys[i] === key));
  return (key: string, now: number): Shortcut | undefined => {
    const sequence = now - lastAt <= SEQUENCE_PAUSE_MS ? [...pending, key] : [key];
    lastAt = now;
    for (const candidate of [sequence, [key]]) {
      const matches = startsWith(candidate);
      const done = matches.find((s) => s.keys.length === candidate.length);
      if (done) {
        pending = [];
        return done;
      }
      if (matches.length > 0) {
        pending = candidate;
        return undefined;
      }
    }
    pending = [];
    return undefined;
  };
}
