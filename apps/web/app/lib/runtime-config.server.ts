import fs from 'node:fs';
import {
  applyEnvProfileOverrides,
  loadDefaultProfiles,
  validateProfiles,
  type DeploymentProfiles,
} from '../startup/deployment-profiles';

let cached: DeploymentProfiles | undefined;

/**
 * The deployment profiles this server hands to browsers: the committed config file (or the file
 * named by DEPLOYMENT_PROFILES_FILE), plus SHOWROOM_PROFILES_JSON overrides, validated. Read once;
 * an invalid profile throws an error naming the profile and the field.
 */
export function loadRuntimeProfiles(env: NodeJS.ProcessEnv = process.env): DeploymentProfiles {
  if (cached) return cached;
  const file = env.DEPLOYMENT_PROFILES_FILE;
  const base = file
    ? validateProfiles(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown)
    : loadDefaultProfiles();
  cached = applyEnvProfileOverrides(base, env);
  return cached;
}
