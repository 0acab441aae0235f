import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { SandboxAction } from '../../api/sandboxes';

/*
 * What the console says about each action, a whole sentence per action and number, so that every
 * language can word it its own way.
 */

/** An action's words: its button, and its badge while under way. */
export const ACTION_LABEL: Record<SandboxAction, { verb: MessageDescriptor; doing: MessageDescriptor }> = {
  pause: { verb: msg`Pause`, doing: msg`Pausing…` },
  resume: { verb: msg`Resume`, doing: msg`Resuming…` },
  delete: { verb: msg`Delete`, doing: msg`Deleting…` },
};

/** An action on one sandbox, named for it (`id`: full for an accessible name, short for a notice). */
export const ACTION_ON: Record<SandboxAction, { named: (id: string) => MessageDescriptor; failed: (id: string) => MessageDescriptor }> = {
  pause: { named: (id) => msg`Pause ${id}`, failed: (id) => msg`Could not pause ${id}` },
  resume: { named: (id) => msg`Resume ${id}`, failed: (id) => msg`Could not resume ${id}` },
  delete: { named: (id) => msg`Delete ${id}`, failed: (id) => msg`Could not delete ${id}` },
};

/** A bulk action's sentences, each whole in every language: the count decides the plural. */
export const BULK_TEXT: Record<
  SandboxAction,
  {
    question: (count: number) => MessageDescriptor;
    confirm: (count: number) => MessageDescriptor;
    doing: (done: number, total: number) => MessageDescriptor;
    /** What it did, e.g. "Paused 2 sandboxes": a notification's title. */
    done: (count: number) => MessageDescriptor;
    /** The same as a sentence, at the end of the dialog. */
    doneSentence: (count: number) => MessageDescriptor;
  }
> = {
  pause: {
    question: (count) => msg`${plural(count, { one: 'Pause # sandbox?', other: 'Pause # sandboxes?' })}`,
    confirm: (count) => msg`${plural(count, { one: 'Pause # sandbox', other: 'Pause # sandboxes' })}`,
    doing: (done, total) => msg`Pausing… ${done} of ${total}`,
    done: (count) => msg`${plural(count, { one: 'Paused # sandbox', other: 'Paused # sandboxes' })}`,
    doneSentence: (count) => msg`${plural(count, { one: 'Paused # sandbox.', other: 'Paused # sandboxes.' })}`,
  },
  resume: {
    question: (count) => msg`${plural(count, { one: 'Resume # sandbox?', other: 'Resume # sandboxes?' })}`,
    confirm: (count) => msg`${plural(count, { one: 'Resume # sandbox', other: 'Resume # sandboxes' })}`,
    doing: (done, total) => msg`Resuming… ${done} of ${total}`,
    done: (count) => msg`${plural(count, { one: 'Resumed # sandbox', other: 'Resumed # sandboxes' })}`,
    doneSentence: (count) => msg`${plural(count, { one: 'Resumed # sandbox.', other: 'Resumed # sandboxes.' })}`,
  },
  delete: {
    question: (count) => msg`${plural(count, { one: 'Delete # sandbox?', other: 'Delete # sandboxes?' })}`,
    confirm: (count) => msg`${plural(count, { one: 'Delete # sandbox', other: 'Delete # sandboxes' })}`,
    doing: (done, total) => msg`Deleting… ${done} of ${total}`,
    done: (count) => msg`${plural(count, { one: 'Deleted # sandbox', other: 'Deleted # sandboxes' })}`,
    doneSentence: (count) => msg`${plural(count, { one: 'Deleted # sandbox.', other: 'Deleted # sandboxes.' })}`,
  },
};
