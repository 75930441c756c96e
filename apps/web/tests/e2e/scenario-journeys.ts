import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '@showroom/contracts/scenarios';

// One runner of scenario journeys: the traffic generator's (tools/traffic/src/journeys.ts).
export { openScenarioLink, runJourney } from '@showroom/traffic/journeys';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The shop's scenario catalogue, as the api serves it by default (data/scenarios.json). */
export const CATALOGUE = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data/scenarios.json'), 'utf8')) as {
    scenarios: Scenario[];
  }
).scenarios;
