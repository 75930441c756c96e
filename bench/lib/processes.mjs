// Child processes for benchmarks: started with their own environment, awaited on a URL,
// stopped (with their children) when the run ends or fails.
import { spawn } from 'node:child_process';

const running = new Set();

/** Starts `node args…` in cwd and resolves once `readyUrl` answers 2xx. */
export async function startNode(args, { cwd, env = {}, readyUrl, timeoutMs = 300_000, name }) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-8_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  running.add(child);
  child.on('exit', () => running.delete(child));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${name ?? args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const response = await fetch(readyUrl);
      if (response.ok) return { child, output: () => output, stop: () => stopProcess(child) };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stopProcess(child);
  throw new Error(`${name ?? args.join(' ')} did not answer ${readyUrl} in ${timeoutMs} ms`);
}

/** SIGTERM to the process group; resolves when the process has exited. */
export function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5_000).unref();
  });
}

export async function stopAll() {
  await Promise.all([...running].map(stopProcess));
}
