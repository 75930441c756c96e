export interface ProcessInfo {
  pid: number;
  name: string;
  state: string;
}
export function processesBelow(root: number): ProcessInfo[];
export function isRunning(pid: number): boolean;
