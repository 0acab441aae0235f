import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Role } from '../../src/contract/roles';

/*
 * Who may do what, in one table: each role × resource × action, and each task the server does on
 * its own. The data-access layer (server/authz/data-access.ts) enforces it on every read and
 * action of a user's data; docs/teams.md shows it (a test holds the two alike).
 */

/** Each resource, and what can be done with one. */
export const ACTIONS = {
  sandbox: ['read', 'create', 'update', 'pause', 'resume', 'delete', 'use'],
  conversation: ['read', 'create', 'update', 'delete', 'pause', 'message', 'approve', 'run', 'continue', 'workspace'],
  start_task: ['read', 'create', 'update', 'delete'],
  event: ['read', 'create'],
  settings: ['read', 'update', 'delete'],
  secrets: ['read', 'update', 'delete'],
  api_key: ['read', 'create', 'update', 'delete'],
  user: ['read', 'invite', 'update', 'delete', 'account'],
  team_defaults: ['read', 'update'],
  llm_call: ['create'],
  usage: ['read', 'record'],
} as const;

export type Resource = keyof typeof ACTIONS;
export type Action<R extends Resource = Resource> = (typeof ACTIONS)[R][number];

/**
 * How far a grant reaches: `own` the subject's own rows; `any` everyone's; `non-owner` everyone's
 * but an owner's (for users: the target, or the role given, is not `owner`).
 */
export type Reach = 'own' | 'any' | 'non-owner';

type Grants = { [R in Resource]?: { [A in Action<R>]?: Reach } };

/** What each action means, for the table in the docs. */
export const ACTION_MEANINGS: { [R in Resource]: { [A in Action<R>]: string } } = {
  sandbox: {
    read: 'see it, its status and its logs',
    create: 'start one',
    update: 'keep its record (after a start, pause or resume)',
    pause: 'pause it',
    resume: 'resume it',
    delete: 'delete it',
    use: 'hold its key: run commands in it, start a conversation in it',
  },
  conversation: {
    read: 'see it and its events',
    create: 'start one',
    update: 'rename or archive it',
    delete: 'delete it',
    pause: 'stop its agent',
    message: 'send its agent a message',
    approve: 'approve or reject an action waiting',
    run: 'let its agent continue',
    continue: 'continue it: in a new sandbox, or with a sub-conversation',
    workspace: 'read its workspace: changes, files, downloads',
  },
  start_task: { read: 'see a start', create: 'start a conversation', update: 'record its steps', delete: 'delete it' },
  event: { read: 'read them', create: 'store them' },
  settings: { read: 'read them', update: 'change them', delete: 'remove them' },
  secrets: { read: 'names (values only for the server’s own use)', update: 'add, change, remove', delete: 'remove all' },
  api_key: { read: 'list them', create: 'make one', update: 'note its use', delete: 'delete one' },
  user: {
    read: 'see the user',
    invite: 'invite someone (or renew an invitation) with a role',
    update: 'change a role, status, sandbox limits or monthly budget',
    delete: 'delete the user',
    account: 'their own password, sessions and sign-ins',
  },
  team_defaults: { read: 'read them (into each user’s settings)', update: 'change them' },
  llm_call: { create: 'record one an agent made through the LLM proxy' },
  usage: { read: 'see LLM calls, tokens, costs, sandbox time and conversations started', record: 'record sandbox time and starts' },
};

const MEMBER: Grants = {
  sandbox: { read: 'own', create: 'own', update: 'own', pause: 'own', resume: 'own', delete: 'own', use: 'own' },
  conversation: {
    read: 'own',
    create: 'own',
    update: 'own',
    delete: 'own',
    pause: 'own',
    message: 'own',
    approve: 'own',
    run: 'own',
    continue: 'own',
    workspace: 'own',
  },
  start_task: { read: 'own', create: 'own', update: 'own', delete: 'own' },
  event: { read: 'own' },
  settings: { read: 'own', update: 'own' },
  secrets: { read: 'own', update: 'own' },
  api_key: { read: 'own', create: 'own', delete: 'own' },
  user: { read: 'own', account: 'own' },
  team_defaults: { read: 'any' },
  usage: { read: 'own' },
};

/**
 * Admins see, pause, resume and delete everyone's sandboxes and conversations and read their
 * events; they never act in a member's name: messages, approvals, continuing, workspaces and a
 * sandbox's key stay with its owner (those run with, or may hold, the owner's secrets).
 */
const ADMIN: Grants = {
  sandbox: { ...MEMBER.sandbox, read: 'any', update: 'any', pause: 'any', resume: 'any', delete: 'any' },
  conversation: { ...MEMBER.conversation, read: 'any', update: 'any', delete: 'any', pause: 'any' },
  start_task: { ...MEMBER.start_task, read: 'any', delete: 'any' },
  event: { read: 'any' },
  settings: MEMBER.settings,
  secrets: MEMBER.secrets,
  api_key: MEMBER.api_key,
  user: { read: 'any', invite: 'non-owner', update: 'non-owner', delete: 'non-owner', account: 'own' },
  team_defaults: { read: 'any', update: 'any' },
  usage: { read: 'any' },
};

/** An owner is an admin who may also make, change and remove owners. */
const OWNER: Grants = { ...ADMIN, user: { ...ADMIN.user, invite: 'any', update: 'any', delete: 'any' } };

export const ROLE_GRANTS: Record<Role, Grants> = { owner: OWNER, admin: ADMIN, member: MEMBER };

/**
 * What the server does on its own, each task with only what it needs. A task granted `own` acts
 * on one user's data, named when it is taken up (`asSystem(task, userId)`).
 */
export const SYSTEM_TASKS = {
  'identify a request': { user: { read: 'any' }, api_key: { read: 'any', update: 'any' } },
  'sign in': { user: { read: 'any', account: 'any' } },
  'accept an invitation': { user: { read: 'any', account: 'any' } },
  'sign in through the identity provider': { user: { read: 'any', invite: 'non-owner', account: 'any' } },
  'collect events': {
    conversation: { read: 'any', update: 'any' },
    event: { create: 'any' },
    sandbox: { read: 'any', use: 'any' },
  },
  'receive events from a sandbox': {
    conversation: { read: 'any', update: 'any' },
    event: { create: 'any' },
    sandbox: { read: 'any', use: 'any' },
  },
  'relay events stored by other instances': { event: { read: 'any' } },
  // Only after the caller was allowed the action on the conversation.
  'reach the agent server of a conversation': { sandbox: { read: 'any', use: 'any' } },
  'create a conversation again in its restarted agent server': {
    settings: { read: 'own' },
    secrets: { read: 'own' },
    team_defaults: { read: 'any' },
  },
  'watch sandboxes': { sandbox: { read: 'any', update: 'any' } },
  'recover sandboxes after a restart': {
    sandbox: { read: 'any', update: 'any', delete: 'any' },
    conversation: { read: 'any' },
    start_task: { update: 'any' },
  },
  'end the starts of gone instances': { start_task: { update: 'any' } },
  // For conversations the caller may see: the status of the sandbox each is in, whoever made it.
  'show the sandboxes of conversations': { sandbox: { read: 'any' } },
  'count sandboxes against the limits': { sandbox: { read: 'any' }, user: { read: 'any' } },
  'make room for a sandbox': { sandbox: { read: 'any', pause: 'own' } },
  'check a new conversation id is free': { conversation: { read: 'any' } },
  'count the conversations in a sandbox': { conversation: { read: 'any' } },
  'forget a deleted user': { settings: { delete: 'own' }, secrets: { delete: 'own' } },
  'end a user’s access': { api_key: { delete: 'own' }, sandbox: { read: 'own', pause: 'own' } },
  'choose the sandbox image': { settings: { read: 'own' }, team_defaults: { read: 'any' } },
  // For a token the server issued to one conversation: that conversation, its owner's LLM settings.
  'forward a conversation’s LLM calls': {
    conversation: { read: 'any' },
    settings: { read: 'own' },
    team_defaults: { read: 'any' },
    llm_call: { create: 'own' },
  },
  // The same token: that conversation, its owner's search key.
  'search the web for a conversation': {
    conversation: { read: 'any' },
    settings: { read: 'own' },
    team_defaults: { read: 'any' },
  },
  'seal MCP env values stored in plain text': { settings: { read: 'own', update: 'own' } },
  'meter sandbox running time': { usage: { record: 'any' }, sandbox: { read: 'any' } },
  'record a conversation start': { usage: { record: 'own' } },
  // A start is refused once the month's LLM costs reach the limit an admin set.
  'check a start against the budget': { usage: { read: 'own' }, user: { read: 'own' } },
  // Counts by status for GET /metrics: no sandbox's id or owner leaves it.
  'report metrics': { sandbox: { read: 'any' } },
} as const satisfies Record<string, Grants>;

export type SystemTask = keyof typeof SYSTEM_TASKS;

/** Why one who may see a thing may still not do this to it: what the refusal says (as Forbidden). */
const REFUSALS: { [R in Resource]?: { [A in Action<R>]?: MessageDescriptor } } = {
  conversation: {
    message: msg`Only the conversation's owner can send its agent a message: the agent runs with their secrets`,
    approve: msg`Only the conversation's owner can approve or reject its agent's actions: they run with their secrets`,
    run: msg`Only the conversation's owner can let its agent continue: it runs with their secrets`,
    continue: msg`Only the conversation's owner can continue it, in a new sandbox or with a sub-conversation: it runs with their secrets`,
    workspace: msg`Only the conversation's owner can read its workspace: it may hold their secrets`,
  },
  sandbox: { use: msg`Only the sandbox's owner can start conversations or run commands in it: it holds their secrets` },
  user: {
    invite: msg`Only an owner can invite an owner`,
    update: msg`Only an owner can change an owner, or make someone one`,
    delete: msg`Only an owner can delete an owner`,
    account: msg`Only the user themselves can change their password or end their sessions`,
  },
};

/**
 * What a refusal of `action` on `resource` says: why, for a person; for one of the server's own
 * tasks (a grant its code lacks, a mistake), which task and what it was refused.
 */
export function refusalReason<R extends Resource>(resource: R, action: Action<R>, task?: SystemTask): MessageDescriptor {
  // Said of the server's own code, in its own words (the action and table names are the code's).
  if (task !== undefined) return msg`The server's task "${task}" may not ${action} ${resource} rows`;
  const reason = (REFUSALS[resource] as Partial<Record<string, MessageDescriptor>> | undefined)?.[action];
  const thing = resource.replace('_', ' ');
  return reason ?? msg`You may not ${action} this ${thing}`;
}
