import type { I18n, MessageDescriptor } from '@lingui/core';
import { inEnglish } from './i18n/english';

/*
 * What services throw when they refuse: the kind of refusal and a sentence for a person (a Lingui
 * message, so it reads in the request's language; `message` holds it in English), never
 * an HTTP status. Which status and body each kind becomes is decided per route in one table
 * (`server/http/error-responses.ts`), since OpenHands responds to the same refusal differently on different routes.
 */

export type DomainErrorKind = 'not_found' | 'conflict' | 'invalid' | 'unavailable' | 'forbidden' | 'unauthenticated' | 'over_budget';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(readonly description: MessageDescriptor) {
    super(inEnglish(description));
  }

  /** The sentence in `i18n`'s language. */
  messageIn(i18n: I18n): string {
    return i18n._(this.description);
  }
}

/**
 * Words from elsewhere (another server's answer, a provider's error), passed on as they are in
 * every language: no catalog has the id, so each renders the message itself, the text.
 */
export const verbatim = (text: string): MessageDescriptor => ({ id: 'verbatim', message: '{text}', values: { text } });

/** The thing asked for does not exist. */
export class NotFound extends DomainError {
  readonly kind = 'not_found';
}

/** The request clashes with the state of things: a name that is taken, a limit that is reached. */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
}

/** One value the service refused, at `loc` within the input it was given (not the HTTP request). */
export interface Problem {
  loc: (string | number)[];
  msg: MessageDescriptor;
  /** The refused value, when it may be shown back (never a secret). */
  input?: unknown;
}

/** Values that passed the contract but the service refuses (a token the provider rejects). */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
  readonly problems: Problem[];

  constructor(problems: Problem[]);
  constructor(loc: (string | number)[], msg: MessageDescriptor, input?: unknown);
  constructor(first: Problem[] | (string | number)[], msg?: MessageDescriptor, input?: unknown) {
    const problems = msg === undefined ? (first as Problem[]) : [{ loc: first as (string | number)[], msg, input }];
    super(verbatim(problems.map((p) => inEnglish(p.msg)).join('; ')));
    this.problems = problems;
  }

  override messageIn(i18n: I18n): string {
    return this.problems.map((p) => i18n._(p.msg)).join('; ');
  }

  /** The same problems, found in a part of a larger input: their locs start with `prefix`. */
  within(...prefix: (string | number)[]): Invalid {
    return new Invalid(this.problems.map((p) => ({ ...p, loc: [...prefix, ...p.loc] })));
  }
}

/** Something the service depends on cannot do its part now (a sandbox that is paused, a provider that is down). */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
}

/** The caller may not do this (a member administering users, an admin changing an owner). */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

/** The credentials given prove nobody (a wrong password, an unknown email: the same answer for both). */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}

/** The user spent what an admin allows them this month (a monthly cost limit): nothing new that costs is started. */
export class OverBudget extends DomainError {
  readonly kind = 'over_budget';
}
