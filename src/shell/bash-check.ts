import { childProcess } from '../child-process.js';

export interface BashSyntaxVerdict {
  ok: boolean;
  /** 1-based script line bash names in its message, when it names one. */
  line?: number;
  message?: string;
}

/**
 * Asks bash itself (`bash -n`, which parses without running) whether a script
 * parses. Used only to confirm what the tree-sitter grammar flags, so the cost
 * of a process is paid only for scripts that look broken. Undefined when bash
 * cannot be run.
 */
export function bashSyntax(text: string): BashSyntaxVerdict | undefined {
  const result = childProcess().spawnSync('bash', ['-n'], { input: text, encoding: 'utf8', timeout: 5000 });
  if (result.error || result.status === null) return undefined;
  if (result.status === 0) return { ok: true };
  const first = result.stderr.split('\n').find((l) => /line \d+:/.test(l)) ?? result.stderr.split('\n')[0] ?? '';
  const match = /line (\d+): (.*)$/.exec(first);
  return match ? { ok: false, line: Number(match[1]), message: match[2]! } : { ok: false, message: first.trim() };
}
