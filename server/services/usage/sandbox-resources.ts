import type { LatestResources, SandboxResources } from '../../../src/contract/sandbox-resources';
import type { Caller } from '../../authz/caller';
import type { SandboxService } from '../sandboxes/sandbox-service';
import type { SandboxMeter } from './sandbox-meter';

/**
 * What sandboxes use, for those who may see them: the meter of the instance that runs each one
 * (a sandbox another instance runs is asked of that instance).
 */
export class SandboxResourcesService {
  constructor(
    private readonly sandboxes: SandboxService,
    private readonly meter: SandboxMeter,
  ) {}

  /** Its last hour; unknown or not visible: NotFound. */
  async resources(caller: Caller, id: string): Promise<SandboxResources> {
    await this.sandboxes.get(caller, id);
    const owner = await this.sandboxes.ownerElsewhere(caller, id);
    if (owner) return this.sandboxes.forward<SandboxResources>(caller, owner, 'GET', `/v1/sandboxes/${id}/resources`);
    return this.meter.resources(id);
  }

  /** Each one's last look, in request order; `null` for one unknown, not visible, or run by another instance. */
  async latest(caller: Caller, ids: string[]): Promise<LatestResources> {
    const visible = await this.sandboxes.getMany(caller, ids);
    const looks = this.meter.latest(ids);
    return looks.map((look, index) => (visible[index] ? look : { sandbox_id: look.sandbox_id, latest: null, limits: null }));
  }
}
