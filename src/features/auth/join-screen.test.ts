import { describe, expect, it } from 'vitest';
import { invitationToken } from './join-screen';

describe('invitationToken', () => {
  it('reads the token from the link’s fragment', () => {
    expect(invitationToken('#token=abc-_123')).toBe('abc-_123');
    expect(invitationToken('')).toBeNull();
    expect(invitationToken('#other=1')).toBeNull();
  });
});
