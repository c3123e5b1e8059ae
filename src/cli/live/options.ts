// What a live command checks with: the contracts --contracts names (else the config's "contracts" globs), and the
// config's profile, severities, volatile tools and packs, as `check` would use them on the recorded file.
import type { CheckOptions } from '../../core';
import { loadConfiguredContracts } from '../contracts';
import { loadConfig, severityOf } from '../settings';

export async function liveCheckOptions(contracts: string[] | undefined): Promise<CheckOptions> {
  const { config, root } = await loadConfig();
  const profile = config.profile ?? 'strict';
  const loaded = await loadConfiguredContracts(contracts, config.contracts, root, profile);
  return { contracts: loaded.contracts, profile, severity: severityOf(config), volatileTools: config.volatileTools, packs: config.packs, maxValueLength: config.maxValueLength };
}
