import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * WAL checkpoints in a process of their own (docs/architecture.md "Performance"). SQLite's
 * connection checkpoints by itself after a commit that leaves 1,000 pages in the WAL: the
 * commit that crosses the line copies them into the database file and syncs it, in the
 * request that happened to commit (on a busy api, more than half of an order's commit time).
 * A second connection in another process can do the copying instead, on the other core,
 * without holding up writers (PASSIVE mode); the api's connection then checkpoints by itself
 * only at CHECKPOINTER_SAFETY_PAGES, which finds the pages already copied, so the WAL is
 * still restarted from its start regularly, and bounded if the process has stopped.
 */

/** The api's own connection checkpoints at this many WAL pages while a checkpointer runs. */
export const CHECKPOINTER_SAFETY_PAGES = 10_000;
/** SQLite's default, which the connection goes back to when the checkpointer has stopped. */
export const OWN_CHECKPOINT_PAGES = 1_000;
/** How often the checkpointer copies what the WAL has gained. */
export const CHECKPOINT_INTERVAL_MS = 25;

/** How long stopping waits for the process before it is killed. */
const STOP_TIMEOUT_MS = 2_000;

/** One checkpoint's answer (SQLite's `PRAGMA wal_checkpoint`): pages in the WAL and copied. */
export interface CheckpointReport {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** Every checkpoint's answer, sent by the process only when this is given (tests). */
  onCheckpoint?: (report: CheckpointReport) => void;
  /** The process ended by itself (it crashed or could not open the file): what it said. */
  onExit?: (detail: string) => void;
}

export interface WalCheckpointer {
  readonly pid: number | undefined;
  /** Resolves once the process has exited, however it ended. */
  readonly exited: Promise<void>;
  /** Ends the process; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Run from its TypeScript source (tests, `npm run dev`) rather than the build. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const PROCESS_MODULE = new URL(
  `./wal-checkpointer-process.${FROM_SOURCE ? 'ts' : 'js'}`,
  import.meta.url,
);

/** Starts the checkpointer process for the SQLite file (in WAL mode) at `file`. */
export function startWalCheckpointer(
  file: string,
  { intervalMs = CHECKPOINT_INTERVAL_MS, onCheckpoint, onExit }: WalCheckpointerOptions = {},
): WalCheckpointer {
  const child = fork(
    fileURLToPath(PROCESS_MODULE),
    [file, String(intervalMs), onCheckpoint ? 'report' : 'quiet'],
    {
      // Its own flags only: an api started with --cpu-prof or --inspect passes them on to no one.
      // From source, the process runs under tsx's loader as well.
      execArgv: FROM_SOURCE ? sourceLoaderFlags() : [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-2_000);
  });
  if (onCheckpoint) child.on('message', (report) => onCheckpoint(report as CheckpointReport));
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    // It could not be started (no exit follows): the same as ending by itself. Later errors
    // (a signal or message that could not be sent) change nothing: 'exit' tells the end.
    child.on('error', (error) => {
      if (child.pid !== undefined) return;
      if (!stopping) onExit?.(`could not start: ${error.message}`);
      resolve();
    });
    // On 'exit', with the stderr read so far: after the api's disconnect, Node 20 emitted no
    // 'close' for a process that had exited (seen with a bare fork as well).
    child.once('exit', (code, signal) => {
      if (!stopping)
        onExit?.(`exited with ${signal ?? `code ${code}`}${stderr ? `: ${stderr.trim()}` : ''}`);
      resolve();
    });
  });
  // Neither the process nor its channel keeps the api running.
  child.unref();
  child.channel?.unref();
  return {
    pid: child.pid,
    exited,
    stop: async () => {
      stopping = true;
      if (child.connected) child.disconnect();
      // It ends on the disconnect; one that does not answer within STOP_TIMEOUT_MS is killed.
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(kill);
    },
  };
}

function sourceLoaderFlags(): string[] {
  const require = createRequire(import.meta.url);
  return ['--import', pathToFileURL(require.resolve('tsx')).href];
}
