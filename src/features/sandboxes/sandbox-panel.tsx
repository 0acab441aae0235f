import type { ReactNode } from 'react';
import { SidePanel } from '../../components/side-panel';

/** What opens a drawer about one sandbox, and closes it. */
export interface SandboxPanelProps {
  sandboxId: string;
  onClose: () => void;
}

/** A wide drawer about one sandbox of the Sandboxes page (its logs, its resource use), open while it is shown. */
export function SandboxPanel({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <SidePanel opened onClose={onClose} size="xl" title={title}>
      {children}
    </SidePanel>
  );
}
