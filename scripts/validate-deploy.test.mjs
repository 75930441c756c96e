// `node --test scripts/validate-deploy.test.mjs`: the deployment files pass scripts/validate-deploy.mjs,
// and a copy of them broken in one place fails it (docs/decisions/015-deployment-files.md).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ROOT, validateDeploy } from './validate-deploy.mjs';

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-deploy-'));
after(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A copy of deploy/ with one file edited; answers the copy's deploy folder. */
function brokenCopy(name, file, edit) {
  const deployDir = path.join(temporary, name, 'deploy');
  fs.cpSync(path.join(ROOT, 'deploy'), deployDir, { recursive: true });
  const target = path.join(deployDir, file);
  const before = fs.readFileSync(target, 'utf8');
  const after = edit(before);
  assert.notEqual(after, before, `the edit of ${file} changed nothing`);
  fs.writeFileSync(target, after);
  return deployDir;
}

test('the committed deployment files are valid', async () => {
  assert.deepEqual(await validateDeploy(), []);
});

test('replicas that are not a number fail', async () => {
  const deployDir = brokenCopy('replicas', 'k8s/base/api.yaml', (text) =>
    text.replace('replicas: 2', 'replicas: "two"'),
  );
  const problems = await validateDeploy({ deployDir });
  assert.ok(
    problems.some((p) => p.includes('Deployment') && p.includes('showroom-api')),
    problems.join('\n'),
  );
});

test('a container without an image fails', async () => {
  const deployDir = brokenCopy('image', 'k8s/base/web.yaml', (text) =>
    text.replace(/^\s+image: showroom-web\n/m, '\n'),
  );
  const problems = await validateDeploy({ deployDir });
  assert.ok(
    problems.some((p) => p.includes('container web: no image')),
    problems.join('\n'),
  );
});

test('an Ingress backend naming a missing Service fails', async () => {
  const deployDir = brokenCopy('ingress', 'k8s/base/ingress.yaml', (text) =>
    text.replace('name: showroom-web', 'name: showroom-frontend'),
  );
  const problems = await validateDeploy({ deployDir });
  assert.ok(
    problems.some((p) => p.includes('backend Service showroom-frontend does not exist')),
    problems.join('\n'),
  );
});

test('an unknown compose key fails', async () => {
  const deployDir = brokenCopy('compose', 'compose.yaml', (text) =>
    text.replace('  lb:\n', '  lb:\n    replicaz: 2\n'),
  );
  const problems = await validateDeploy({ deployDir });
  assert.ok(
    problems.some((p) => p.includes('compose.yaml') && p.includes('replicaz')),
    problems.join('\n'),
  );
});

test('a Dockerfile that runs as root or copies a missing file fails', async () => {
  const deployDir = brokenCopy('dockerfile', 'api.Dockerfile', (text) =>
    text
      .replace('USER 1000:1000', 'USER root')
      .replace('COPY apps/api/flags', 'COPY apps/api/flagz'),
  );
  const problems = await validateDeploy({ deployDir });
  assert.ok(
    problems.some((p) => p.includes('non-root USER')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('apps/api/flagz does not exist')),
    problems.join('\n'),
  );
});
