// The last step of `npm run build -w apps/web`: gives this build its id (docs/requirements.md
// ) and writes it to build/build-meta.json, which the web server reads at start
// (server/build-info.ts). The id is the build's UTC time and React Router's client-manifest
// version (the hash in build/client/assets/manifest-<version>.js), e.g. 20260124-153000-baa8ce96.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUILD_ID_PATTERN,
  BUILD_META_FILE,
  buildTimeLabel,
} from '../build/server-main/build-info.js';

const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'build');
const assets = fs.readdirSync(path.join(buildDir, 'client', 'assets'));
const manifests = assets.filter((name) => /^manifest-[A-Za-z0-9_-]+\.js$/.test(name));
if (manifests.length !== 1) {
  throw new Error(`expected one client manifest in build/client/assets, found ${manifests.length}`);
}
const version = manifests[0].slice('manifest-'.length, -'.js'.length);
const now = new Date();
const meta = { id: `${buildTimeLabel(now)}-${version}`, timestamp: now.toISOString() };
if (!BUILD_ID_PATTERN.test(meta.id)) throw new Error(`unusable build id ${meta.id}`);
fs.writeFileSync(path.join(buildDir, BUILD_META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
console.log(`Showroom web: build ${meta.id}`);
