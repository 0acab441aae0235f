import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import type { SandboxInfo, SandboxStatus } from '../../contract/sandboxes';
import { BULK_TEXT } from './action-text';
import { actionFailure, canApply, hasEnded, pausedNotice, planBulk } from './actions';

const sandbox = (id: string, status: SandboxStatus): SandboxInfo => ({
  id,
  status,
  created_by_user_id: null,
  sandbox_spec_id: 'agent-server',
  session_api_key: null,
  exposed_urls: null,
  created_at: '2026-11-25T10:00:00Z',
});

describe('actions by state', () => {
  it.each([
    ['pause', 'RUNNING', true],
    ['pause', 'STARTING', true],
    ['pause', 'PAUSED', false],
    ['resume', 'PAUSED', true],
    ['resume', 'RUNNING', false],
    ['delete', 'MISSING', true],
    ['delete', 'ERROR', true],
  ] as const)('%s on %s: %s', (action, status, allowed) => {
    expect(canApply(action, status)).toBe(allowed);
  });

  it.each([
    ['ERROR', true],
    ['MISSING', true],
    ['RUNNING', false],
    ['PAUSED', false],
    ['STARTING', false],
  ] as const)('%s has ended: %s', (status, ended) => {
    expect(hasEnded(status)).toBe(ended);
  });

  it('says what a bulk action did', () => {
    expect(i18n._(BULK_TEXT.pause.done(2))).toBe('Paused 2 sandboxes');
    expect(i18n._(BULK_TEXT.delete.done(1))).toBe('Deleted 1 sandbox');
    expect(i18n._(BULK_TEXT.resume.question(3))).toBe('Resume 3 sandboxes?');
    expect(i18n._(BULK_TEXT.pause.doing(2, 5))).toBe('Pausing… 2 of 5');
  });

  it('plans a bulk action on the rows in a valid state only', () => {
    const rows = [sandbox('a', 'RUNNING'), sandbox('b', 'PAUSED'), sandbox('c', 'STARTING'), sandbox('d', 'ERROR')];
    const plan = planBulk('pause', rows);
    expect(plan.apply.map((s) => s.id)).toEqual(['a', 'c']);
    expect(plan.skip.map((s) => s.id)).toEqual(['b', 'd']);
  });
});

describe('pausedNotice', () => {
  it('names the paused sandboxes, or says nothing', () => {
    expect(pausedNotice([])).toBeUndefined();
    expect(i18n._(pausedNotice(['0123456789abcdef'])!)).toBe(
      'Sandbox 01234567 was paused to stay within the number of sandboxes that may run at once.',
    );
    expect(i18n._(pausedNotice(['aaaaaaaa11', 'bbbbbbbb22'])!)).toMatch(/^Sandboxes aaaaaaaa, bbbbbbbb were paused/);
  });
});

describe('actionFailure', () => {
  it('says what a 404 means for each action, and passes other errors on as they are', () => {
    const notFound = new ApiError('Not Found', 'http', 404);
    expect(actionFailure(i18n, 'resume', notFound)).toBe(
      'Its processes have ended, so it cannot be resumed: delete it, or start a new one.',
    );
    expect(actionFailure(i18n, 'pause', notFound)).toBe('It no longer exists.');
    expect(actionFailure(i18n, 'delete', new ApiError('Sandbox engine unavailable', 'http', 503))).toBe('Sandbox engine unavailable');
  });
});
