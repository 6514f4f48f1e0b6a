import { readBounded } from '../../fs-read.js';
import { profileFromBytes, profileFromText } from '../../profile/profile.js';
import { configScripts } from './config.js';
import { effectiveEvent, matchedToolsWithInput } from './contract.js';
import { claudeCodeConfig } from './read.js';
import {
  diskFacts,
  isNodeScript,
  isPythonScript,
  isShellScript,
  type ScriptFacts,
  type ScriptReference,
  scriptReferences,
} from './scripts.js';

/** Text that a file with a Claude Code `command` handler must contain; others are not parsed twice. */
const COMMAND_HANDLER = /["']?type["']?\s*:\s*["']?command\b/;

/**
 * Adds to the files to lint the shell scripts, Python and Node programs their Claude
 * Code hooks run (resolved under the project or plugin root), each once however
 * many hooks run it, marked with the events of those hooks so their contract applies.
 * A script named on the command line too gets the marks rather than a second
 * entry. Missing scripts are not added: the hook's command gets the error.
 */
/** What the engine lints (its LintInput), as far as this needs to know; the engine sits above runtimes/. */
interface Input {
  filePath: string;
  bytes?: Uint8Array;
  /** The size on disk of a file over the size limit, of which `bytes` holds the first bytes. */
  size?: number;
  text?: string;
  kind?: 'markdown' | 'json' | 'script' | 'python' | 'node';
  calledBy?: string[];
  /** Every hook that runs the script runs it in the background (`async`), so its exit code and output decide nothing. */
  inBackground?: boolean;
  /** The tools the exact matchers of the hooks that run it name (absent when one of them may run it for any tool). */
  callerTools?: string[];
  /** Every hook that runs the script gives it something else than the hook's stdin (`jq -c .tool_input | ./guard.sh`). */
  foreignStdin?: boolean;
}

/**
 * Whether the input may hold a `command` handler. Bytes are searched for the
 * word before anything is decoded: most files (every claude-flow profile
 * without it) are then never decoded here, and a regular expression's first,
 * interpreted run over a whole corpus of text cost ~8 ms.
 */
function mayHaveCommandHandler(input: Input): boolean {
  if (input.text !== undefined) return COMMAND_HANDLER.test(input.text);
  if (!input.bytes) return false;
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  return bytes.includes('command') && COMMAND_HANDLER.test(bytes.toString('utf8'));
}

/**
 * What a file a hook runs is linted as: a shell script, or a Python or Node
 * program read for the fields it takes from the hook's input, its exits and
 * its outputs (not when the hook gives it something else on stdin); undefined
 * for anything else.
 */
function readAs(reference: ScriptReference, head: string): ProgramKind | undefined {
  if (isShellScript(reference, head)) return 'script';
  if (reference.foreignStdin) return undefined;
  if (isPythonScript(reference, head)) return 'python';
  return isNodeScript(reference, head) ? 'node' : undefined;
}

type ProgramKind = 'script' | 'python' | 'node';

export function withReferencedScripts<T extends Input>(inputs: readonly T[], facts: ScriptFacts = diskFacts): Promise<(T | Input)[]> {
  const events = new Map<string, Set<string>>();
  /** What each script is read as. */
  const kinds = new Map<string, ProgramKind>();
  /** Scripts some hook runs in the foreground. */
  const foreground = new Set<string>();
  /** Scripts some hook runs with its own stdin. */
  const ownStdin = new Set<string>();
  /** The tools each script's callers name; null once one caller may run it for any tool. */
  const tools = new Map<string, Set<string> | null>();
  for (const input of inputs) {
    if (input.calledBy || !mayHaveCommandHandler(input)) continue;
    const profile = input.text !== undefined ? profileFromText(input.filePath, input.text) : profileFromBytes(input.filePath, input.bytes!);
    if ('ok' in profile && !profile.ok) continue;
    const config = claudeCodeConfig('ok' in profile ? profile.profile : profile);
    for (const hook of configScripts(config)) {
      for (const reference of scriptReferences(hook)) {
        if (!facts.isFile(reference.path)) continue;
        const kind = readAs(reference, facts.head(reference.path));
        // The first hook to name a file says what it is (a file run as both is read as the first).
        if (kind === undefined || (kinds.get(reference.path) ?? kind) !== kind) continue;
        kinds.set(reference.path, kind);
        const event = effectiveEvent(hook.claudeCode!.event, hook.claudeCode!.source);
        events.set(reference.path, (events.get(reference.path) ?? new Set()).add(event));
        const named = matchedToolsWithInput(hook.claudeCode!.matcher, event);
        const known = tools.get(reference.path);
        tools.set(reference.path, named && known !== null ? new Set([...(known ?? []), ...named]) : null);
        if (!hook.claudeCode!.async) foreground.add(reference.path);
        if (!reference.foreignStdin) ownStdin.add(reference.path);
      }
    }
  }
  if (events.size === 0) return Promise.resolve([...inputs]);
  const callers = (path: string): { inBackground?: true; callerTools?: string[]; foreignStdin?: true } => {
    const named = tools.get(path);
    return {
      ...(foreground.has(path) ? {} : { inBackground: true as const }),
      ...(named ? { callerTools: [...named].sort() } : {}),
      ...(ownStdin.has(path) ? {} : { foreignStdin: true as const }),
    };
  };
  const out: (T | Input)[] = inputs.map((input): T | Input => {
    const callerEvents = events.get(input.filePath);
    if (!callerEvents) return input;
    events.delete(input.filePath);
    return { ...input, kind: kinds.get(input.filePath)!, calledBy: [...callerEvents].sort(), ...callers(input.filePath) };
  });
  for (const [path, callerEvents] of events) {
    try {
      out.push({ filePath: path, ...readBounded(path), kind: kinds.get(path)!, calledBy: [...callerEvents].sort(), ...callers(path) });
    } catch {
      // Unreadable now though it was a file a moment ago: the hook's command is still linted.
    }
  }
  return Promise.resolve(out);
}
