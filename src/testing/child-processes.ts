import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Kills `child` when the test file's process exits before it: a file the runner ends at its time bound, or one
 * that crashes, leaves no `medora` process behind.
 */
export function endsWithTestFile<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}
