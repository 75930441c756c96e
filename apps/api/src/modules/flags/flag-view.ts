import type { ExposureCounts } from '../intake/repository.js';
import { allocationRolloutPercentage, splitPercentage } from './operations.js';
import type { StoredFlag } from './repository.js';
import type { FlagView } from '@showroom/contracts/flags-admin';

/** What an operator sees of a flag: its definition, rollout shares and live exposure counts. */
export function toFlagView(stored: StoredFlag, exposures: ExposureCounts | undefined): FlagView {
  const { flag } = stored;
  const counts = exposures ?? { total: 0, byVariant: {} };
  return {
    key: flag.key,
    enabled: flag.enabled,
    variationType: flag.variationType,
    variations: Object.values(flag.variations).map((variation) => ({
      key: variation.key,
      value: variation.value,
      exposures: counts.byVariant[variation.key] ?? 0,
    })),
    allocations: flag.allocations.map((allocation) => ({
      key: allocation.key,
      rules: allocation.rules ?? [],
      ...(allocation.startAt !== undefined && { startAt: allocation.startAt }),
      ...(allocation.endAt !== undefined && { endAt: allocation.endAt }),
      doLog: allocation.doLog ?? false,
      rolloutPercentage: allocationRolloutPercentage(allocation),
      splits: allocation.splits.map((split) => ({
        variationKey: split.variationKey,
        percentage: splitPercentage(split),
        shards: split.shards,
        ...(split.extraLogging !== undefined && { extraLogging: split.extraLogging }),
      })),
    })),
    exposures: counts,
    revision: stored.revision,
    updatedAt: stored.updatedAt,
  };
}
