import { defineRule } from '../../src/engine/rule.js';
import { eventsOfHook } from '../../src/runtimes/claude-code/contract.js';
import { commandBase } from '../../src/shell/analysis.js';
import { nodeExits } from '../../src/shell/node-exits.js';
import { nodeOutputs } from '../../src/shell/node-output.js';
import { parseProgramFile } from '../../src/shell/node-program.js';
import { localModuleTexts } from '../../src/shell/program-imports.js';
import { pythonExits } from '../../src/shell/python-exits.js';
import { pythonOutputs } from '../../src/shell/python-output.js';

const STOP_EVENTS = new Set(['Stop', 'SubagentStop']);

/**
 * A Stop or SubagentStop hook that blocks makes Claude keep going; when it
 * stops again, the hook runs again with `stop_hook_active: true`. A hook
 * that blocks without checking that field blocks forever (Claude Code ends
 * the turn after 8 blocks in a row since v2.1.143, so it loops until then).
 */
export default defineRule({
  id: 'cc-stop-hook-active',
  meta: {
    description: 'A Claude Code Stop/SubagentStop hook can block without checking `stop_hook_active`, so it can loop.',
    severity: 'warning',
    category: 'runtime',
    runtimes: ['claude-code'],
  },
  messages: {
    loop: 'Unexpected block in a `{{event}}` hook that never reads `stop_hook_active`: once Claude continues, the hook blocks again and again. Exit 0 when `jq -r .stop_hook_active` is `true`.',
    loopProgram:
      "Unexpected block in a `{{event}}` hook that never reads `stop_hook_active`: once Claude continues, the hook blocks again and again. End without blocking when the input's `stop_hook_active` is true (`{{check}}`).",
  },
  checkScript(context) {
    const event = eventsOfHook(context.hook).find((e) => STOP_EVENTS.has(e));
    if (!event || context.hook.text.includes('stop_hook_active')) return;
    const exit2 = context.commands.find((c) => commandBase(c) === 'exit' && c.args[0]?.value === '2');
    const decision = /["']?decision["']?\s*:\s*\\?["']?block/.exec(context.hook.text);
    const start = exit2?.start ?? decision?.index;
    if (start === undefined) return;
    const end = exit2?.end ?? start + decision![0].length;
    context.report({ messageId: 'loop', data: { event }, range: context.range(start, end) });
  },
  // A Python or Node program a Stop hook runs: it blocks with `decision: "block"` in an output it spells
  // out (`print(json.dumps({"decision": "block", …}))`) or with a literal exit 2.
  checkProgram({ program, range, report }) {
    const event = program.callerEvents.find((e) => STOP_EVENTS.has(e));
    if (!event || program.inBackground || program.text.includes('stop_hook_active')) return;
    // A router may leave the Stop handler, and its check, to a module of its own tree.
    if (localModuleTexts(program).some((text) => text.includes('stop_hook_active'))) return;
    const node = program.language === 'node' ? parseProgramFile(program) : undefined;
    const outputs = program.language === 'python' ? pythonOutputs(program.text) : node ? nodeOutputs(node) : [];
    const block = outputs.find((printed) => /"decision":"block"/.test(printed.text.replace(/\s+/g, '')));
    let at: { start: number; end: number } | undefined;
    if (block) {
      const value = block.text.indexOf('"block"');
      at = { start: block.offsets[block.text.lastIndexOf('"decision"', value)]!, end: block.ends[value + '"block"'.length - 1]! };
    } else {
      const exits = program.language === 'python' ? pythonExits(program.text) : node ? nodeExits(node) : [];
      // An exit 2 that refuses (not one after "invalid input", an error report, though it blocks the same).
      at = exits.find((exit) => exit.status === 2 && exit.decides);
    }
    const check =
      program.language === 'python' ? 'if data.get("stop_hook_active"): sys.exit(0)' : 'if (input.stop_hook_active) process.exit(0)';
    if (at) report({ messageId: 'loopProgram', data: { event, check }, range: range(at.start, at.end) });
  },
});
