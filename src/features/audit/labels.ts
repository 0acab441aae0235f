import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { AuditAction, AuditAuthMethod, AuditResourceType, AuditResult } from '../../contract/audit';

/** The log's words in the user's language. */

export const ACTION_LABELS: Record<AuditAction, MessageDescriptor> = {
  read: msg({ message: 'read', comment: 'Audit log action: looked at something' }),
  login: msg({ message: 'sign in', comment: 'Audit log action' }),
  logout: msg({ message: 'sign out', comment: 'Audit log action' }),
  end: msg({ message: 'end', comment: 'Audit log action: a browser session ended (expired, or ended by a sign-out, a password change…)' }),
  create: msg({ message: 'create', comment: 'Audit log action' }),
  write: msg({ message: 'change', comment: 'Audit log action' }),
  delete: msg({ message: 'delete', comment: 'Audit log action' }),
  register: msg({ message: 'accept invitation', comment: 'Audit log action' }),
  renew: msg({ message: 'renew', comment: 'Audit log action: a new invitation link' }),
  start: msg({ message: 'start', comment: 'Audit log action: a sandbox' }),
  pause: msg({ message: 'pause', comment: 'Audit log action: a sandbox' }),
  resume: msg({ message: 'resume', comment: 'Audit log action: a sandbox, or a conversation continued' }),
  archive: msg({ message: 'archive', comment: 'Audit log action: a conversation' }),
  first_use: msg({ message: 'first use', comment: 'Audit log action: an API key used for the first time' }),
  prune: msg({ message: 'prune', comment: 'Audit log action: old entries removed' }),
};

export const RESOURCE_LABELS: Record<AuditResourceType, MessageDescriptor> = {
  session: msg({ message: 'session', comment: 'Audit log resource: a sign-in' }),
  api_key: msg`API key`,
  invitation: msg`invitation`,
  user: msg`user`,
  team_defaults: msg`team defaults`,
  settings: msg`settings`,
  mcp_server: msg`MCP server`,
  git_token: msg`git token`,
  secret: msg`secret`,
  sandbox: msg`sandbox`,
  sandbox_spec: msg({ message: 'sandbox spec', comment: 'Audit log resource: its image built on the base image Settings name' }),
  conversation: msg`conversation`,
  audit_log: msg`audit log`,
};

export const RESULT_LABELS: Record<AuditResult, MessageDescriptor> = {
  done: msg({ message: 'done', comment: 'Audit log result: it happened' }),
  refused: msg({ message: 'refused', comment: 'Audit log result: not allowed' }),
  failed: msg({ message: 'failed', comment: 'Audit log result: went wrong' }),
};

export const RESULT_COLORS: Record<AuditResult, string> = { done: 'green', refused: 'orange', failed: 'red' };

export const AUTH_METHOD_LABELS: Record<AuditAuthMethod, MessageDescriptor> = {
  session_key: msg`session key`,
  api_key: msg`API key`,
  cookie: msg`browser session`,
  password: msg`password`,
  identity_provider: msg`identity provider`,
  server: msg({ message: 'the server', comment: 'Audit log: done by the server itself' }),
};
