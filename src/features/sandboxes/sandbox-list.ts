import type { SandboxAction } from '../../api/sandboxes';
import type { SandboxInfo, SandboxRuntimeName } from '../../contract/sandboxes';
import type { SandboxConversation } from './used-by';
import type { Owner } from '../../contract/team';
import type { ResourceLook } from './resource-use';

/** What the table and the cards (narrow screens) both show and do. */
export interface SandboxListProps {
  items: SandboxInfo[];
  inFlight: Map<string, SandboxAction>;
  /** The sandbox whose "Start again" is under way. */
  startingAgainId: string | undefined;
  /** Where sandboxes run, to say how one went missing. */
  runtime: SandboxRuntimeName | undefined;
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  onAction: (action: SandboxAction, sandbox: SandboxInfo) => void;
  onStartAgain: (sandbox: SandboxInfo) => void;
  /** Absent when the server has no sandbox logs (OpenHands). */
  onLogs?: (id: string) => void;
  /** The conversations each sandbox serves, by its id, when the server says. */
  usedBy?: ReadonlyMap<string, readonly SandboxConversation[]>;
  /** The team, for an admin: whose each sandbox is. */
  owners?: readonly Owner[];
  /** Each running sandbox's last look at what it uses, by its id, when the server says (a Resources column). */
  resources?: ReadonlyMap<string, ResourceLook>;
  /** Opens a sandbox's last hour of resource use. */
  onResources?: (id: string) => void;
}
