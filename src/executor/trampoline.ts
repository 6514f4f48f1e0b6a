import type { SuperviseOptions } from './execute.js';
import type { SpawnedProcess, SpawnRequest } from './process-runner.js';
import { closeInheritedFds, LAUNCHER_SHELL } from './sandbox.js';
import { shellQuote } from './shims.js';

/**
 * The trampoline that starts the supervised command: descriptors this
 * process inherited (and Node passes on) are closed before bwrap starts, all
 * but the pipes given on purpose, and with a control group the trampoline is
 * in it before it starts anything, so no child can be forked outside it.
 * Either it moves itself (RunCgroup.selfEntry, where the start marker tells
 * its failure apart from the hook's exit) or it waits at a gate (a `read` on
 * its stdin) until the supervisor has moved it by PID.
 */

/** The trampoline's status when it could not move itself into its group (before any start marker: never the hook's). */
export const CGROUP_ENTRY_FAILED = 124;

/** The group file the trampoline writes to move itself in, when it does. */
export function selfEntryFile(options: SuperviseOptions): string | undefined {
  return options.startPipe !== undefined ? options.cgroup?.selfEntry : undefined;
}

export function trampolineRequest(options: SuperviseOptions): SpawnRequest {
  const kept = Array.from({ length: options.request.extraPipes ?? 0 }, (_, index) => 3 + index);
  const opens = (options.openFiles ?? []).map(({ fd, path }) => `exec ${fd}<${shellQuote(path)} || exit 125; `).join('');
  const selfEntry = selfEntryFile(options);
  const gated = options.cgroup !== undefined && selfEntry === undefined;
  const entry =
    selfEntry !== undefined
      ? `{ printf 0 >${shellQuote(selfEntry)}; } 2>/dev/null || exit ${CGROUP_ENTRY_FAILED}; `
      : gated
        ? 'read -r _ || :; '
        : '';
  return {
    ...options.request,
    command: '/bin/bash',
    args: [
      ...LAUNCHER_SHELL,
      `${entry}${closeInheritedFds(kept)}; ${opens}exec "$0" "$@"`,
      options.request.command,
      ...options.request.args,
    ],
    ...(gated || options.stdin !== undefined ? { stdinPipe: true } : {}),
  };
}

/**
 * Moves the waiting trampoline into its control group and lets it go on;
 * returns the problem when it could not. Synchronous, right after the spawn:
 * the trampoline is still starting when the gate opens, so it never waits.
 * A trampoline that moves itself has no gate: its stdin is the hook's.
 */
export function openGate(child: SpawnedProcess, pid: number, options: SuperviseOptions): string | undefined {
  if (!options.cgroup || selfEntryFile(options) !== undefined) {
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    return undefined;
  }
  const cgroup = options.cgroup;
  try {
    cgroup.enter(pid);
  } catch {
    child.kill('SIGKILL');
    return cgroupEntryProblem(cgroup.path);
  }
  // sh's `read` takes one byte at a time from a pipe, so what follows the gate's newline is the hook's.
  child.stdin?.end(`\n${options.stdin ?? ''}`);
  return undefined;
}

export function cgroupEntryProblem(path: string): string {
  return `could not move the sandbox into its control group ${path}`;
}

/**
 * Lets the set-up sandbox go on (a line on its gate pipe, SandboxPlan.gateFd)
 * once `gate` resolves, or stops it when the gate fails: the host's part of
 * the run's set-up (its sockets, environment, commands) was made while bwrap
 * made the sandbox. Without a gate pipe, nothing waits.
 */
export function openSandboxGate(child: SpawnedProcess, options: SuperviseOptions, stop: () => void): void {
  const pipe = options.gatePipe !== undefined ? child.extra[options.gatePipe] : undefined;
  if (!pipe) return;
  // A sandbox that died before its gate opened leaves the pipe broken: nothing to tell it then.
  pipe.on('error', () => undefined);
  void (options.gate?.() ?? Promise.resolve()).then(
    () => pipe.end('\n'),
    () => {
      // Closed without its line, the gate ends the sandbox's shell (`read … || exit 125`) and bwrap with it.
      // A SIGKILL here could catch bwrap while it made its namespaces: its second process, not yet bound to
      // die with it, was left blocked for good (seen in the test of this very failure). The kill comes only
      // if the sandbox has not ended by then.
      pipe.end();
      const late = setTimeout(stop, GATE_CLOSE_GRACE_MS);
      late.unref();
      void child.exited.then(() => clearTimeout(late));
    },
  );
}

/** How long a sandbox whose gate was closed has to end by itself before it is killed. */
const GATE_CLOSE_GRACE_MS = 2000;
