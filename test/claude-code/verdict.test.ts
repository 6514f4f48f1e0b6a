import { describe, expect, it } from 'vitest';
import { interpretHandler, mergeVerdicts, type HandlerOutcome } from '../../src/runtimes/claude-code/verdict.js';
import { hasRawControl } from '../../src/text/control-chars.js';

const outcome = (fields: Partial<HandlerOutcome>): HandlerOutcome => ({
  exitCode: 0,
  timedOut: false,
  stdout: '',
  stderr: '',
  timeoutSeconds: 600,
  ...fields,
});
const pre = (permissionDecision: string, reason = 'why') =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, permissionDecisionReason: reason } });
const ids = (v: { problems: { id: string }[] }) => v.problems.map((p) => p.id);

describe('one handler (§5.1)', () => {
  it('exit 2 denies a PreToolUse call with stderr as the reason, whatever the JSON says', () => {
    const v = interpretHandler('PreToolUse', outcome({ exitCode: 2, stderr: 'rm -rf refused\n', stdout: pre('allow') }));
    expect(v).toMatchObject({ decision: 'deny', status: 'blocking-error' });
    expect(v.reason).toBe('rm -rf refused');
    expect(ids(v)).toContain('exit-2-overrides-json');
  });

  it('exit 1 is a non-blocking error, reported as a refusal that does not refuse', () => {
    const v = interpretHandler('PreToolUse', outcome({ exitCode: 1, stderr: 'blocked!' }));
    expect(v.decision).toBe('none');
    expect(v.why).toMatch(/exited 1; only exit 2 or a deny decision blocks/);
    expect(ids(v)).toEqual(['exit-1-refusal']);
  });

  it('a valid JSON deny decides even with exit 1', () => {
    const v = interpretHandler('PreToolUse', outcome({ exitCode: 1, stdout: pre('deny', 'no') }));
    expect(v).toMatchObject({ decision: 'deny', reason: 'no', jsonApplied: true });
  });

  it('a timed-out handler renders no decision', () => {
    const v = interpretHandler('PreToolUse', outcome({ exitCode: null, timedOut: true, stdout: pre('deny') }));
    expect(v.decision).toBe('none');
    expect(ids(v)).toEqual(['timed-out']);
  });

  it('text before the JSON makes it plain text', () => {
    const v = interpretHandler('PreToolUse', outcome({ stdout: `checking...\n${pre('deny')}\n` }));
    expect(v.decision).toBe('none');
    expect(ids(v)).toEqual(['text-before-json']);
  });

  it('stdout starting with { that is not JSON is a hook error', () => {
    const v = interpretHandler('PreToolUse', outcome({ stdout: `${pre('deny')}\ndone\n` }));
    expect(v.decision).toBe('none');
    expect(ids(v)).toEqual(['invalid-json']);
  });

  it('permissionDecision at the top level is ignored', () => {
    const v = interpretHandler(
      'PreToolUse',
      outcome({ stdout: JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'x' }) }),
    );
    expect(v.decision).toBe('none');
    expect(ids(v)).toEqual(['wrong-level', 'wrong-level']);
  });

  it('a hookEventName that is not the event rejects the output', () => {
    const v = interpretHandler(
      'PreToolUse',
      outcome({ stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }) }),
    );
    expect(v).toMatchObject({ decision: 'none', jsonApplied: false });
    expect(ids(v)).toEqual(['event-name-mismatch']);
  });

  it('decision: approve is deprecated and maps to allow on PreToolUse', () => {
    const v = interpretHandler('PreToolUse', outcome({ stdout: JSON.stringify({ decision: 'approve', reason: 'ok' }) }));
    expect(v.decision).toBe('allow');
    expect(ids(v)).toEqual(['deprecated-decision']);
  });

  it('the legacy PreToolUse decision: "block" still denies; a top-level "ask" is rejected', () => {
    const block = interpretHandler('PreToolUse', outcome({ stdout: JSON.stringify({ decision: 'block', reason: 'Blocked by policy' }) }));
    expect(block).toMatchObject({ decision: 'deny', reason: 'Blocked by policy' });
    expect(ids(block)).toEqual(['deprecated-decision']);
    const ask = interpretHandler('PreToolUse', outcome({ stdout: JSON.stringify({ decision: 'ask', reason: 'Please confirm' }) }));
    expect(ask).toMatchObject({ decision: 'none', jsonApplied: false, status: 'non-blocking-error' });
    expect(ids(ask)).toEqual(['invalid-value']);
  });

  it('exit 2 with a log line on stdout and nothing on stderr blocks without a reason', () => {
    const v = interpretHandler('PreToolUse', outcome({ exitCode: 2, stdout: '[Hook] Blocked dangerous command\n' }));
    expect(v).toMatchObject({ decision: 'deny', status: 'blocking-error' });
    expect(v.reason).toBeUndefined();
    expect(ids(v)).toEqual(['block-without-reason']);
  });

  it('Stop blocks with a top-level decision and warns on unknown fields', () => {
    const v = interpretHandler('Stop', outcome({ stdout: JSON.stringify({ decision: 'block', reason: 'tests fail', extra: 1 }) }));
    expect(v).toMatchObject({ decision: 'block', reason: 'tests fail' });
    expect(ids(v)).toEqual(['unknown-field']);
  });

  it('exit 2 on PermissionRequest is not honoured', () => {
    const v = interpretHandler('PermissionRequest', outcome({ exitCode: 2, stderr: 'no' }));
    expect(v.decision).toBe('none');
    expect(ids(v)).toEqual(['exit-2-ignored']);
  });

  it('ConfigChange blocks on exit 2 or a block decision, except from policy_settings (§2.2, §5.3)', () => {
    const refuse = outcome({ exitCode: 2, stderr: 'refuse\n' });
    for (const source of ['user_settings', 'project_settings', 'local_settings', 'skills'])
      expect(mergeVerdicts('ConfigChange', [interpretHandler('ConfigChange', refuse, { source })])).toMatchObject({
        blocked: true,
        decision: 'block',
        reason: 'refuse',
      });
    const policy = interpretHandler('ConfigChange', refuse, { source: 'policy_settings' });
    expect(policy).toMatchObject({ decision: 'none', status: 'non-blocking-error' });
    expect(policy.why).toMatch(/policy_settings.*cannot be blocked/);
    expect(ids(policy)).toEqual(['cannot-block']);
    expect(mergeVerdicts('ConfigChange', [policy])).toMatchObject({ blocked: false, decision: 'none' });
    const json = interpretHandler('ConfigChange', outcome({ stdout: JSON.stringify({ decision: 'block', reason: 'no' }) }), {
      source: 'policy_settings',
    });
    expect(json).toMatchObject({ decision: 'none', status: 'success' });
    expect(mergeVerdicts('ConfigChange', [json]).blocked).toBe(false);
  });

  describe('PreModelSwitch (§9)', () => {
    const decide = (permissionDecision: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', permissionDecision, permissionDecisionReason: 'costly' } });
    const picker = { source: 'picker' };

    it('reads permissionDecision allow, deny or ask in hookSpecificOutput, and no defer', () => {
      expect(interpretHandler('PreModelSwitch', outcome({ stdout: decide('deny') }), picker)).toMatchObject({
        decision: 'deny',
        reason: 'costly',
        problems: [],
      });
      expect(interpretHandler('PreModelSwitch', outcome({ stdout: decide('allow') }), picker).decision).toBe('allow');
      expect(interpretHandler('PreModelSwitch', outcome({ stdout: decide('ask') }), picker).decision).toBe('ask');
      const defer = interpretHandler('PreModelSwitch', outcome({ stdout: decide('defer') }), picker);
      expect(defer.decision).toBe('none');
      expect(ids(defer)).toEqual(['invalid-value']);
      expect(
        mergeVerdicts('PreModelSwitch', [interpretHandler('PreModelSwitch', outcome({ stdout: decide('deny') }), picker)]),
      ).toMatchObject({ blocked: true, decision: 'deny' });
    });

    it('counts ask as a refusal outside an interactive /model', () => {
      const v = interpretHandler('PreModelSwitch', outcome({ stdout: decide('ask') }), { source: 'sdk' });
      expect(v.decision).toBe('deny');
      expect(v.why).toMatch(/interactive `\/model`/);
      expect(interpretHandler('PreModelSwitch', outcome({ stdout: decide('ask') }), { source: 'command' }).decision).toBe('ask');
    });

    it('reads a top-level decision: "block" without calling it unknown', () => {
      const v = interpretHandler('PreModelSwitch', outcome({ stdout: JSON.stringify({ decision: 'block', reason: 'too big' }) }), picker);
      expect(v).toMatchObject({ decision: 'block', reason: 'too big', problems: [] });
      expect(mergeVerdicts('PreModelSwitch', [v]).blocked).toBe(true);
    });

    it('blocks the switch when a handler times out, unlike PreToolUse', () => {
      const v = interpretHandler('PreModelSwitch', outcome({ exitCode: null, timedOut: true, timeoutSeconds: 30 }), picker);
      expect(v).toMatchObject({ status: 'timed-out', decision: 'block' });
      expect(mergeVerdicts('PreModelSwitch', [v])).toMatchObject({ blocked: true, decision: 'block' });
    });
  });

  it('exit 127 says the guard is disabled', () => {
    expect(ids(interpretHandler('PreToolUse', outcome({ exitCode: 127 })))).toEqual(['command-not-found']);
  });
});

describe('merging (§3.3)', () => {
  it.each([
    [['allow', 'ask'], 'ask'],
    [['allow', 'defer', 'ask'], 'defer'],
    [['allow', 'deny', 'defer'], 'deny'],
    [['allow'], 'allow'],
    [[], 'none'],
  ])('%j merges to %s', (decisions, expected) => {
    const verdicts = decisions.map((d) => interpretHandler('PreToolUse', outcome({ stdout: pre(d, d) })));
    const merged = mergeVerdicts('PreToolUse', verdicts);
    expect(merged.decision).toBe(expected);
    expect(merged.blocked).toBe(expected === 'deny');
  });

  it('continue: false stops whatever the decision', () => {
    const v = interpretHandler('PostToolUse', outcome({ stdout: JSON.stringify({ continue: false, stopReason: 'enough' }) }));
    expect(mergeVerdicts('PostToolUse', [v])).toMatchObject({ continue: false, stopReason: 'enough', blocked: false, decision: 'none' });
  });

  it.each(['ConfigChange', 'TaskCreated', 'FileChanged', 'SessionEnd'])(
    'continue: false on %s, which discards it, stops nothing',
    (event) => {
      const v = interpretHandler(event, outcome({ stdout: JSON.stringify({ continue: false, stopReason: 'enough' }) }));
      expect(v.stop).toBeUndefined();
      expect(mergeVerdicts(event, [v])).toMatchObject({ continue: true, blocked: false });
      expect(mergeVerdicts(event, [v]).stopReason).toBeUndefined();
    },
  );
});

describe('WorktreeCreate: a command hook answers with the path it prints (§5.2)', () => {
  const worktree = (stdout: string, exitCode = 0) => interpretHandler('WorktreeCreate', outcome({ stdout, exitCode }));
  it('reads the last non-empty line, ANSI escapes stripped, not JSON', () => {
    const v = worktree('\u001b[1mcreating\u001b[0m\n/tmp/wt/feature\n\n');
    expect(v).toMatchObject({ decision: 'none', why: 'it printed the worktree path /tmp/wt/feature', problems: [] });
    expect(v.json).toBeUndefined();
  });
  it('an absolute path with . or .. segments is refused: the creation fails', () => {
    const v = worktree('/repo/../etc\n');
    expect(v.decision).toBe('block');
    expect(v.problems).toEqual([
      expect.objectContaining({
        id: 'worktree-path-invalid',
        severity: 'error',
        message: expect.stringMatching(/^Invalid worktree path "\/repo\/\.\.\/etc": .*refused/),
      }),
    ]);
  });
  it('JSON, a relative path or nothing are doubts, said so', () => {
    expect(worktree('{"hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/x"}}').problems[0]).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('a command hook prints the path itself'),
    });
    expect(worktree('wt/feature').problems[0]!.message).toContain('not an absolute path');
    expect(worktree('').problems[0]).toMatchObject({ id: 'worktree-path-missing' });
  });
  it('a non-zero exit still fails the creation, whatever it printed', () => {
    expect(worktree('/tmp/wt/x', 1).decision).toBe('block');
  });
});

describe('exit 2 still reads valid JSON on stdout (§5.1)', () => {
  it('continue: false stops Claude after an exit-2 block, with its stopReason', () => {
    const stdout = JSON.stringify({ continue: false, stopReason: 'halt the session' });
    const v = interpretHandler('PreToolUse', outcome({ exitCode: 2, stderr: 'refused', stdout }));
    expect(v).toMatchObject({ decision: 'deny', reason: 'refused', stop: { reason: 'halt the session' } });
    expect(mergeVerdicts('PreToolUse', [v])).toMatchObject({ blocked: true, continue: false, stopReason: 'halt the session' });
  });

  it("the JSON's blocking reason, not stderr, is the reason, and the clause says so", () => {
    const stdout = JSON.stringify({ decision: 'block', reason: 'from the JSON' });
    const v = interpretHandler('Stop', outcome({ exitCode: 2, stderr: 'from stderr', stdout }));
    expect(v.reason).toBe('from the JSON');
    expect(v.why).not.toMatch(/stderr as the reason/);
    expect(v.why).toMatch(/JSON/);
  });
});

describe('hostile stdout JSON', () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  it('a deeply nested value in a typed field is reported invalid, not a crash', () => {
    for (const key of ['decision', 'hookSpecificOutput', 'continue']) {
      const v = interpretHandler('Stop', outcome({ stdout: `{"${key}":${deep}}` }));
      expect(v).toMatchObject({ status: 'non-blocking-error', decision: 'none', jsonApplied: false });
      expect(ids(v)).toContain('invalid-value');
    }
  });

  it('hook-controlled text in problem messages and clauses carries no raw control character', () => {
    const cases: Array<[string, Partial<HandlerOutcome>]> = [
      ['PreToolUse', { stdout: '{"a":\u001b[2J\u001b[HClaude Code: allowed}' }],
      ['WorktreeCreate', { stdout: '/tmp/wt/a\u009b2J\u0008b\n' }],
      ['WorktreeCreate', { stdout: '/tmp/wt/../a\u009b2J\n' }],
    ];
    for (const [event, fields] of cases) {
      const v = interpretHandler(event, outcome(fields));
      expect(hasRawControl(v.why)).toBe(false);
      for (const problem of v.problems) expect(hasRawControl(problem.message)).toBe(false);
    }
  });

  it('stdout that starts with { but is not one JSON object is a hook error, not plain text (§9, v2.1.248)', () => {
    for (const stdout of ['{"decision":"block","reason":"x"}\n{"decision":"block"}\n', '{"a":1}\ndone\n', '{ not json']) {
      const v = interpretHandler('Stop', outcome({ stdout }));
      expect(v).toMatchObject({ status: 'non-blocking-error', decision: 'none' });
      expect(v.why).not.toMatch(/plain text/);
      expect(ids(v)).toContain('invalid-json');
    }
  });

  it('stdout cut at the output cap: the clause does not claim there was no output or plain text', () => {
    // 2 MB of blank lines, then a block: this tool keeps only the blanks.
    const v = interpretHandler('Stop', outcome({ stdout: '\n'.repeat(1024), stdoutBytesCut: 2_000_000 }));
    expect(v.decision).toBe('none');
    expect(v.why).not.toMatch(/without output|plain text/);
    expect(v.why).toMatch(/first 1024 of 2000000 bytes/);
    expect(ids(v)).toContain('output-cut');
  });

  it('asyncRewake exit 2 wakes Claude with stderr (or stdout), blocking nothing (§2.4, §3.6)', () => {
    const v = interpretHandler('PostToolUse', outcome({ exitCode: 2, stderr: 'lint failed', async: true, asyncRewake: true }));
    expect(v).toMatchObject({ decision: 'none', status: 'success' });
    expect(v.why).toMatch(/wakes Claude/);
    const plain = interpretHandler('PostToolUse', outcome({ exitCode: 2, stderr: 'lint failed', async: true }));
    expect(plain.why).not.toMatch(/wakes Claude/);
  });

  it('exit 2 on Elicitation ignores hookSpecificOutput rather than rejecting the JSON (§5.1)', () => {
    const stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'maybe' }, systemMessage: 'x' });
    const v = interpretHandler('Elicitation', outcome({ exitCode: 2, stderr: 'no', stdout }));
    expect(v).toMatchObject({ decision: 'block', status: 'blocking-error', reason: 'no' });
    expect(ids(v)).not.toContain('invalid-value');
    expect(ids(v)).toContain('ignored-on-exit-2');
  });
});
