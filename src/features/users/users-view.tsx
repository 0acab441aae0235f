import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text } from '@mantine/core';
import { IconGauge, IconLink, IconPlayerPause, IconPlayerPlay, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { RelativeTime } from '../../components/relative-time';
import { RowActions, RowActionsHeader, type RowActionItem } from '../../components/row-actions';
import type { Member } from '../../contract/team';
import type { Role } from '../../contract/roles';

const ROLE_LABELS: Record<Role, MessageDescriptor> = { owner: msg`Owner`, admin: msg`Admin`, member: msg`Member` };
const STATUS_COLORS = { active: 'green', invited: 'blue', disabled: 'gray' } as const;
/** A member's status, as its badge says it. */
const STATUS_LABELS: Record<Member['status'], MessageDescriptor> = {
  active: msg({ message: 'active', comment: "A user's status: may sign in" }),
  invited: msg({ message: 'invited', comment: "A user's status: invited, has not set a password yet" }),
  disabled: msg({ message: 'disabled', comment: "A user's status: may not sign in" }),
};

/** The roles `myRole` may give `member` (none: the role is shown, not chosen). Mirrors the server's rules. */
export function assignableRoles(myRole: Role, myId: string, member: Member): Role[] {
  if (member.user_id === myId || member.status === 'invited') return [];
  if (myRole === 'owner') return ['owner', 'admin', 'member'];
  if (myRole === 'admin' && member.role !== 'owner') return ['admin', 'member'];
  return [];
}

export interface UsersViewProps {
  members: Member[];
  myId: string;
  myRole: Role;
  onInvite: () => void;
  onRoleChange: (member: Member, role: Role) => void;
  onStatusChange: (member: Member, status: 'active' | 'disabled') => void;
  onNewLink: (member: Member) => void;
  onLimits: (member: Member) => void;
  onDelete: (member: Member) => void;
  /** Cards instead of a table, for narrow screens. */
  layout?: 'table' | 'cards';
}

/** What a row or a card shows of one member, and what may be done to them. */
interface MemberLine {
  member: Member;
  name: string;
  you: boolean;
  roles: Role[];
  actions: RowActionItem[];
}

function memberLine(
  member: Member,
  { myId, myRole, onStatusChange, onNewLink, onLimits, onDelete }: UsersViewProps,
  i18n: I18n,
): MemberLine {
  const name = member.name || member.email || member.user_id;
  const roles = assignableRoles(myRole, myId, member);
  const mayChange = roles.length > 0;
  // An owner's invitation is an owner's to renew or withdraw, as inviting one is.
  const invitedMayChange = member.status === 'invited' && (myRole === 'owner' || member.role !== 'owner');
  const actions: RowActionItem[] = [];
  if (invitedMayChange)
    actions.push({
      verb: i18n._(
        msg({
          message: 'New invitation link for',
          comment: "Before the user's name or email, as the button's accessible name: New invitation link for ada@example.com",
        }),
      ),
      title: i18n._(msg`New invitation link`),
      icon: <IconLink size={16} />,
      onClick: () => onNewLink(member),
    });
  if (mayChange)
    actions.push({
      verb: i18n._(
        msg({
          message: 'Set sandbox limits for',
          comment: "Before the user's name, as the button's accessible name: Set sandbox limits for Ada",
        }),
      ),
      title: i18n._(msg`Sandbox limits`),
      icon: <IconGauge size={16} />,
      onClick: () => onLimits(member),
    });
  if (mayChange && member.status === 'active')
    actions.push({ verb: i18n._(msg`Disable`), icon: <IconPlayerPause size={16} />, onClick: () => onStatusChange(member, 'disabled') });
  if (mayChange && member.status === 'disabled')
    actions.push({ verb: i18n._(msg`Enable`), icon: <IconPlayerPlay size={16} />, onClick: () => onStatusChange(member, 'active') });
  if (member.user_id !== myId && (mayChange || invitedMayChange))
    actions.push({ verb: i18n._(msg`Delete`), icon: <IconTrash size={16} />, danger: true, onClick: () => onDelete(member) });
  return { member, name, you: member.user_id === myId, roles, actions };
}

function Who({ line: { member, name, you } }: { line: MemberLine }) {
  return (
    // A long address wraps rather than push the status off a narrow card.
    <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
      <Text size="sm" fw={500}>
        {name}
        {you && (
          <Text span c="dimmed" size="sm">
            {' '}
            <Trans>(you)</Trans>
          </Text>
        )}
      </Text>
      {member.email && member.name && (
        <Text size="xs" c="dimmed">
          {member.email}
        </Text>
      )}
    </div>
  );
}

function RoleControl({ line: { member, name, roles }, onRoleChange }: { line: MemberLine; onRoleChange: UsersViewProps['onRoleChange'] }) {
  const { t } = useLingui();
  if (roles.length === 0) return <Text size="sm">{t(ROLE_LABELS[member.role])}</Text>;
  return (
    <NativeSelect
      aria-label={t`Role of ${name}`}
      size="xs"
      w={120}
      value={member.role}
      data={roles.map((role) => ({ value: role, label: t(ROLE_LABELS[role]) }))}
      onChange={(event) => {
        const role = event.currentTarget.value as Role;
        if (role !== member.role) onRoleChange(member, role);
      }}
    />
  );
}

function MemberStatus({ member }: { member: Member }) {
  const { t } = useLingui();
  return (
    <Badge variant="light" color={STATUS_COLORS[member.status]}>
      {t(STATUS_LABELS[member.status])}
    </Badge>
  );
}

const LastSignIn = ({ member }: { member: Member }) =>
  member.last_sign_in_at ? (
    <RelativeTime iso={member.last_sign_in_at} />
  ) : (
    <Text span size="sm" c="dimmed">
      <Trans>Never</Trans>
    </Text>
  );

/** How many of the member's sandboxes run, and of how many they may run at once when they have a limit of their own. */
function RunningSandboxes({ member }: { member: Member }) {
  const running = member.running_sandboxes ?? '—';
  const max = member.max_running_sandboxes;
  if (max == null) return <>{running}</>;
  return (
    <Trans>
      {running}{' '}
      <Text span c="dimmed" size="sm">
        of {max}
      </Text>
    </Trans>
  );
}

/** The team: who they are, their role and status, when they last signed in, what runs of theirs. */
export function UsersView(props: UsersViewProps) {
  const { t, i18n } = useLingui();
  const { members, onInvite, onRoleChange, layout = 'table' } = props;
  if (members.length === 0) {
    return (
      <EmptyState title={t`Nobody here yet`} description={t`Invite the people who will use this server.`}>
        <Button leftSection={<IconUserPlus size={16} />} onClick={onInvite}>
          <Trans>Invite people</Trans>
        </Button>
      </EmptyState>
    );
  }
  const lines = members.map((member) => memberLine(member, props, i18n));
  if (layout === 'cards') {
    return (
      <Stack component="ul" aria-label={t`Users`} gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {lines.map((line) => (
          <Paper component="li" key={line.member.user_id} withBorder radius="md" p="sm">
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Who line={line} />
                <MemberStatus member={line.member} />
              </Group>
              <Text size="sm" c="dimmed" component="div">
                <Trans>
                  Last sign-in <LastSignIn member={line.member} />
                </Trans>
                {' · '}
                <Trans>
                  Running sandboxes <RunningSandboxes member={line.member} />
                </Trans>
              </Text>
              <Group justify="space-between" wrap="nowrap">
                <RoleControl line={line} onRoleChange={onRoleChange} />
                <RowActions name={line.name} actions={line.actions} />
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table verticalSpacing="sm" aria-label={t`Users`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>User</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Role</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Status</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Last sign-in</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Running sandboxes</Trans>
            </Table.Th>
            <RowActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.member.user_id}>
              <Table.Td>
                <Who line={line} />
              </Table.Td>
              <Table.Td>
                <RoleControl line={line} onRoleChange={onRoleChange} />
              </Table.Td>
              <Table.Td>
                <MemberStatus member={line.member} />
              </Table.Td>
              <Table.Td>
                <LastSignIn member={line.member} />
              </Table.Td>
              <Table.Td>
                <RunningSandboxes member={line.member} />
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <RowActions name={line.name} actions={line.actions} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
