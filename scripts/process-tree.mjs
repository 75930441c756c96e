// The processes below one process (its children, their children…), read from /proc (Linux):
// the traffic generator's browsers in the browser tests and its memory in the bench.
import fs from 'node:fs';

/** `{ pid, name, state }` of `root` and every process below it. */
export function processesBelow(root) {
  const children = new Map();
  const info = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (name) state ppid …: the name may hold spaces and parentheses.
      const close = stat.lastIndexOf(')');
      const [state, ppid] = stat.slice(close + 2).split(' ');
      const pid = Number(entry);
      info.set(pid, { pid, name: stat.slice(stat.indexOf('(') + 1, close), state });
      children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), pid]);
    } catch {
      // it ended while we looked
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree.flatMap((pid) => (info.has(pid) ? [info.get(pid)] : []));
}

/** Running, not ended: a zombie (ended, not yet reaped by its new parent) counts as ended. */
export function isRunning(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
