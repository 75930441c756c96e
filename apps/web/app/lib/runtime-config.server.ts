import fs from 'node:fs';
import {
  predictProfile,
  profileIndex,
  type DeploymentProfiles,
  type KeyedProfile,
  type ProfileIndex,
} from '../startup/deployment-profiles';
import {
  applyEnvProfileOverrides,
  loadDefaultProfiles,
  validateProfiles,
} from '../startup/profile-validation';
import { parseQuerySwitches } from '../startup/query-switches';

let cached: { profiles: DeploymentProfiles; index: ProfileIndex } | undefined;

function runtime(env: NodeJS.ProcessEnv): { profiles: DeploymentProfiles; index: ProfileIndex } {
  if (cached) return cached;
  const file = env.DEPLOYMENT_PROFILES_FILE;
  const base = file
    ? validateProfiles(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown)
    : loadDefaultProfiles();
  const profiles = applyEnvProfileOverrides(base, env);
  cached = { profiles, index: profileIndex(profiles) };
  return cached;
}

/**
 * The deployment profiles this server hands to browsers: the committed config file (or the file
 * named by DEPLOYMENT_PROFILES_FILE), plus SHOWROOM_PROFILES_JSON overrides, validated. Read once;
 * an invalid profile throws an error naming the profile and the field.
 */
export function loadRuntimeProfiles(env: NodeJS.ProcessEnv = process.env): DeploymentProfiles {
  return runtime(env).profiles;
}

/**
 * What a document carries for the browser's start-up: the index of every profile (to choose
 * one, R-4.15) and the one profile predicted from the request's `ship` parameter and host
 * (its Host header). A browser whose stored choice is another profile fetches that one.
 */
export function documentStartupData(
  request: Request,
  env: NodeJS.ProcessEnv = process.env,
): { profileIndex: ProfileIndex; documentProfile: KeyedProfile } {
  const { profiles, index } = runtime(env);
  const url = new URL(request.url);
  const { ship } = parseQuerySwitches(url.searchParams, url.pathname);
  return {
    profileIndex: index,
    documentProfile: predictProfile(profiles, index, { ship, host: url.host }),
  };
}
