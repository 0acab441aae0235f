import type { OptionKind } from '../../src/contract/options';
import type { LlmPrices } from '../llm-prices';

/** The agent our agent server runs (it has no other). */
const AGENT_NAME = 'CodeActAgent';

/**
 * What Settings may choose from on this server: models it knows prices for (and the demo model),
 * the one agent its agent server runs, and no security analyzer (its actions carry no risk rating).
 */
export class OptionsService {
  constructor(private readonly prices: LlmPrices) {}

  list(kind: OptionKind): string[] {
    switch (kind) {
      case 'models':
        return this.prices.modelNames();
      case 'agents':
        return [AGENT_NAME];
      case 'security-analyzers':
        return [];
    }
  }
}
