import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from './fixtures';
import { createPostgresDatabase } from './postgres-database';
import { startSecondApi, startSecondWeb, type SecondServer } from './monitoring-helpers';

// The scale-out topology on one machine (README "Scaling out", docs/architecture.md "Scaling"):
// nginx in front, two web replicas and two api replicas, one PostgreSQL database. The browser
// knows one address, nginx's web port; the web replicas' server loaders and `/api` proxy reach
// the api through nginx's api port, so consecutive requests alternate between the replicas.

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
/** Shared by the api replicas: a session cookie signed by one is valid on the other. */
const SESSION_SECRET = 'scale-out-test-session-secret-0123456789abcdef';
/**
 * How often each api replica looks for a guarded rollout due a check (default 1 s): often, so
 * both replicas race for each check (docs/decisions/019-guarded-rollouts.md).
 */
const GUARD_CHECK_INTERVAL_MS = '200';

export interface TopologyPorts {
  /** nginx's port for the browser (the web replicas behind it). */
  web: number;
  /** nginx's port for the web replicas' api calls (the api replicas behind it). */
  api: number;
  apis: [number, number];
  webs: [number, number];
}

/** One request nginx passed on (its access log: `<port> <upstream> <status> <method> <uri>`). */
export interface Pass {
  port: number;
  /** `127.0.0.1:<port>` of the replica that answered. */
  upstream: string;
  status: number;
  method: string;
  uri: string;
}

export interface Topology {
  webUrl: string;
  apiUrl: string;
  /** An api replica's own address. */
  apiReplica(index: 0 | 1): string;
  /** Kills api replica `index` with SIGKILL (nginx then sends everything to the other). */
  killApi(index: 0 | 1): Promise<void>;
  /** The JSON log lines api replica `index` printed so far (it logs at info). */
  apiLogLines(index: 0 | 1): Record<string, unknown>[];
  /** Every request nginx passed so far: its own port and the upstream that answered. */
  passes(): Pass[];
  /** A client of the topology's own database. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  /**
   * Locks `table` (ACCESS EXCLUSIVE, in a transaction of its own): every other query of it, a
   * read too, waits until `release()`. Lets a test line the replicas up on the same row.
   */
  lockTable(table: string): Promise<TableLock>;
  stop(): Promise<void>;
}

export interface TableLock {
  /** How many other connections wait for the lock now. */
  waiting(): Promise<number>;
  /** Commits the locking transaction (again: nothing). */
  release(): Promise<void>;
}

/** Checks that nginx can run here; the message says how to get it. */
export function nginxMissing(): string | null {
  if (!fs.existsSync(NGINX)) {
    return `nginx is not installed at ${NGINX}: apt-get install -y nginx (.ci/run installs it)`;
  }
  return null;
}

/** Starts the database, the replicas and nginx; stops what it started if a step fails. */
export async function startTopology(ports: TopologyPorts): Promise<Topology> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const database = await createPostgresDatabase('scale');
    stops.push(database.drop);
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // pool.end() resolves once its clients are told to end, not once their sockets close, so the
    // drop's WITH (FORCE) may still terminate one (57P01) after it has left the pool: expected
    // at the end, and any other error on a client outside a query still fails the run.
    const unlessTerminated = (error: Error & { code?: string }) => {
      if (error.code !== '57P01') throw error;
    };
    pool.on('error', unlessTerminated);
    pool.on('connect', (client) => client.on('error', unlessTerminated));
    stops.push(() => pool.end());
    const webUrl = `http://127.0.0.1:${ports.web}`;
    const apiUrl = `http://127.0.0.1:${ports.api}`;

    // Both api replicas start at once on the empty database, as a Deployment's pods do: the
    // migrations and the seed must not race.
    const apis: SecondServer[] = [];
    await Promise.all(
      ports.apis.map(async (port, index) => {
        apis[index] = await startSecondApi(port, webUrl, {
          databaseUrl: database.url,
          env: { SESSION_SECRET, GUARD_CHECK_INTERVAL_MS },
        });
        stops.push(() => apis[index]!.stop());
      }),
    );
    const nginx = await startNginx(ports);
    stops.push(nginx.stop);
    const webs = await Promise.all(ports.webs.map((port) => startSecondWeb(port, apiUrl)));
    for (const web of webs) stops.push(() => web.stop());

    return {
      webUrl,
      apiUrl,
      apiReplica: (index) => `http://127.0.0.1:${ports.apis[index]}`,
      async killApi(index) {
        await apis[index]!.kill();
      },
      apiLogLines: (index) => apis[index]!.logLines(),
      passes: () =>
        nginx
          .log()
          .map((line) => {
            // `$upstream_addr` lists an upstream nginx tried and gave up on before the one that
            // answered (", "-separated, so it may hold spaces).
            const match = /^(\d+) (.+) (\d{3}) (\S+) (\S+)$/.exec(line);
            if (!match) throw new Error(`nginx access log line not understood: ${line}`);
            const [, port, upstreams, status, method, uri] = match;
            return {
              port: Number(port),
              upstream: upstreams!.split(',').at(-1)!.trim(),
              status: Number(status),
              method: method!,
              uri: uri!,
            };
          })
          // A request the browser gave up on before nginx picked an upstream (a navigation
          // cancels a prefetch's data request, an upload aborted mid-body) was never passed:
          // logged as 499 with no upstream ("-").
          .filter((pass) => !(pass.status === 499 && pass.upstream === '-')),
      async query(text, values) {
        return (await pool.query(text, values)).rows;
      },
      async lockTable(table) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        await client.query('BEGIN');
        await client.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
        let released = false;
        return {
          async waiting() {
            const { rows } = await pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE c.relname = $1 AND NOT l.granted
                  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
              [table],
            );
            return Number(rows[0]?.n ?? 0);
          },
          async release() {
            if (released) return;
            released = true;
            await client.query('COMMIT');
            await client.end();
          },
        };
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

interface Nginx {
  log(): string[];
  stop(): Promise<void>;
}

/** nginx as a child process with its own prefix folder, configuration and ports. */
async function startNginx(ports: TopologyPorts): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-nginx-'));
  const logFile = path.join(dir, 'access.log');
  const upstream = (name: string, list: number[]) =>
    `upstream ${name} {\n    zone ${name} 64k;\n${list.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n')}\n  }`;
  const server = (port: number, to: string) => `server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${to};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_buffering off;
    }
  }`;
  // No master process: as root, worker processes would run as nobody, who cannot write the
  // temporary folders (large answers would be cut).
  const config = `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 512; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format upstreams '$server_port $upstream_addr $status $request_method $request_uri';
  access_log ${logFile} upstreams;
  ${upstream('webs', ports.webs)}
  ${upstream('apis', ports.apis)}
  ${server(ports.web, 'webs')}
  ${server(ports.api, 'apis')}
}
`;
  const configFile = path.join(dir, 'nginx.conf');
  fs.writeFileSync(configFile, config);
  const check = spawnSync(NGINX, ['-p', `${dir}/`, '-c', configFile, '-e', 'stderr', '-t', '-q']);
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr.toString()}`);
  const child: ChildProcess = spawn(NGINX, ['-p', `${dir}/`, '-c', configFile, '-e', 'stderr'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
        return fetch(`http://127.0.0.1:${ports.api}/health`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 20_000 },
    )
    .toBe(200);
  return {
    log: () =>
      fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : [],
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      process.off('exit', killChild);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
