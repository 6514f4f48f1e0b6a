import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { main } from '../src/cli/main.js';
import { memoryIO } from '../src/io.js';
import { defaultConfig } from '../src/engine/config.js';
import { lintInputs } from '../src/engine/lint.js';
import { BLOCKING_HOOKS, runtimeEnvFor } from '../src/runtime/contract.js';
import { codePointColumnToUtf16, shellcheckAnalyzer, shellcheckVersion, shortRunLanes } from '../src/shellcheck/index.js';

const available = shellcheckVersion() !== undefined;
if (!available) console.warn('shellcheck.test.ts: ShellCheck is not installed; these tests are skipped here (CI installs it).');

async function lint(text: string, info: 'warning' | 'off' = 'warning') {
  const [result] = await lintInputs([{ filePath: '/virtual/p.md', text }], {
    rules,
    config: defaultConfig(),
    batchAnalyzers: [shellcheckAnalyzer({ infoSeverity: info })],
  });
  return result!.diagnostics.filter((d) => d.ruleId.startsWith('shellcheck/'));
}

const at = (d: { ruleId: string; line: number; column: number; endLine: number; endColumn: number }) =>
  `${d.ruleId}@${d.line}:${d.column}-${d.endLine}:${d.endColumn}`;

describe('code point to UTF-16 columns', () => {
  it('counts astral characters as two units', () => {
    expect(codePointColumnToUtf16('echo "🚀 $x"', 9)).toBe(10);
    expect(codePointColumnToUtf16('\techo $y', 7)).toBe(7);
    expect(codePointColumnToUtf16('ab', 5)).toBe(5);
  });
});

describe('how many ShellCheck processes run side by side', () => {
  it('a short run: one more than there are cores, so no core idles at the end; one on a single core', () => {
    expect([1, 2, 4, 16].map((cores) => shortRunLanes(cores))).toEqual([1, 3, 5, 17]);
  });

  it('a long run: one per core, unless told', () => {
    expect(shellcheckAnalyzer({ infoSeverity: 'warning' }).lanes).toBe(Math.max(1, availableParallelism()));
    expect(shellcheckAnalyzer({ infoSeverity: 'warning', processes: 2 }).lanes).toBe(2);
  });
});

describe.skipIf(!available)('ShellCheck integration', () => {
  it('places findings at the exact file position, with LF, CRLF, BOM, tabs and emoji', async () => {
    const body = [
      '---',
      'name: sc',
      'hooks:',
      '  on_blocking_start: |',
      '    echo "🚀 start" $unset_var',
      '    \tcat $FILE_LIST',
      '---',
      '',
    ];
    for (const [eol, bom] of [
      ['\n', ''],
      ['\r\n', ''],
      ['\r\n', '\uFEFF'],
    ] as const) {
      const found = (await lint(bom + body.join(eol))).map(at);
      // `$unset_var` is at code point 16 of the script line, 17 in UTF-16 units (the emoji is two), plus 4 of YAML indentation.
      expect(found).toContain('shellcheck/SC2154@5:21-5:31');
      expect(found).toContain('shellcheck/SC2086@5:21-5:31');
      // A tab counts one column (json1).
      expect(found).toContain('shellcheck/SC2086@6:10-6:20');
    }
  });

  it('maps nested lifecycle hooks and keeps the severity of each level', async () => {
    const found = await lint(
      '---\nname: sc\nhooks:\n  lifecycle:\n    cleanup: |\n      if [ $x = 1 ]; then echo; fi\n      echo $((1 +))\n---\n',
    );
    expect(found.map(at)).toContain('shellcheck/SC2154@6:12-6:14');
    expect(found.find((d) => d.ruleId === 'shellcheck/SC2154')!.severity).toBe('warning');
    expect(found.some((d) => d.severity === 'error' && d.line === 7)).toBe(true);
    expect(found.every((d) => d.hook === 'lifecycle.cleanup')).toBe(true);
  });

  it("links the wiki and keeps ShellCheck's fix as file edits", async () => {
    const [d] = (await lint('---\nname: sc\nhooks:\n  pre: |\n    cat $FILE_LIST\n---\n')).filter((x) => x.ruleId === 'shellcheck/SC2086');
    expect(d!.message).toContain('https://www.shellcheck.net/wiki/SC2086');
    expect(d!.fixes![0]!.edits.map((e) => `${e.range.line}:${e.range.column}=${e.text}`)).toEqual(['5:9="', '5:19="']);
  });

  it("writes ShellCheck's fix as the hook's quoting spells it, so --fix leaves JSON and YAML that still parse", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-sc-fix-'));
    try {
      mkdirSync(join(dir, '.claude', 'agents'), { recursive: true });
      const settings = join(dir, '.claude', 'settings.json');
      const command = 'f=$(date); touch $f';
      writeFileSync(settings, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }));
      const profile = join(dir, '.claude', 'agents', 'q.md');
      writeFileSync(
        profile,
        '---\nname: q\ndescription: d\nhooks:\n  on_blocking_start: "x=$(date); echo $x"\n  pre: \'y=$(date); echo $y\'\n---\n',
      );
      await main(['--fix', settings, profile], memoryIO({ cwd: dir }));
      const fixed = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: { PostToolUse: { hooks: { command: string }[] }[] } };
      expect(fixed.hooks.PostToolUse[0]!.hooks[0]!.command).toBe('f=$(date); touch "$f"');
      const yaml = readFileSync(profile, 'utf8');
      expect(yaml).toContain('on_blocking_start: "x=$(date); echo \\"$x\\""');
      expect(yaml).toContain('pre: \'y=$(date); echo "$y"\'');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("honours the user's directives on the first line (nothing is prepended)", async () => {
    const found = await lint('---\nname: sc\nhooks:\n  pre: |\n    # shellcheck disable=SC2086\n    cat $FILE_LIST\n---\n');
    expect(found.filter((d) => d.ruleId === 'shellcheck/SC2086')).toEqual([]);
  });

  it('info and style findings can be turned off', async () => {
    expect(await lint('---\nname: sc\nhooks:\n  pre: |\n    cat $FILE_LIST\n---\n', 'off')).toEqual([]);
  });

  it("never reports the runtime's variables as unassigned in any hook", async () => {
    for (const hook of BLOCKING_HOOKS) {
      const script = runtimeEnvFor(hook)
        .map((name) => `    echo "\${${name}}"`)
        .join('\n');
      const found = await lint(`---\nname: sc\nhooks:\n  ${hook}: |\n${script}\n---\n`);
      expect(found.filter((d) => d.ruleId === 'shellcheck/SC2154')).toEqual([]);
    }
    // ...while a variable nobody sets is reported.
    expect((await lint('---\nname: sc\nhooks:\n  pre: |\n    echo "$nobody"\n---\n')).map((d) => d.ruleId)).toContain('shellcheck/SC2154');
  });

  it('a more specific rule of ours supersedes the overlapping ShellCheck finding, unless it is off', async () => {
    const text = '---\nname: sc\nhooks:\n  on_blocking_start: |\n    mkdir $TASK\n    echo \'{"a":"${AGENT_ID}"}\'\n---\n';
    const lintWith = async (rulesConfig: Record<string, 'off'>) => {
      const config = { ...defaultConfig(), rules: rulesConfig };
      const [result] = await lintInputs([{ filePath: '/virtual/p.md', text }], {
        rules,
        config,
        batchAnalyzers: [shellcheckAnalyzer({ infoSeverity: 'warning' })],
      });
      return result!.diagnostics;
    };
    const run = async (rulesConfig: Record<string, 'off'>) => (await lintWith(rulesConfig)).map((d) => `${d.ruleId}@${d.line}:${d.column}`);
    // The superseded finding's fix moves to the one that stays.
    const injection = (await lintWith({})).find((d) => d.ruleId === 'injection-unquoted-var')!;
    expect(injection.fixes?.map((f) => f.title)).toEqual(["Apply ShellCheck's fix for SC2086"]);
    const both = await run({});
    expect(both).toContain('injection-unquoted-var@5:11');
    expect(both).toContain('json-single-quoted-var@6:17');
    expect(both.filter((d) => d.startsWith('shellcheck/SC2086') || d.startsWith('shellcheck/SC2016'))).toEqual([]);
    const ours = await run({ 'injection-unquoted-var': 'off', 'json-single-quoted-var': 'off' });
    expect(ours).toContain('shellcheck/SC2086@5:11');
    expect(ours.some((d) => d.startsWith('shellcheck/SC2016@6:'))).toBe(true);
  });

  it('quoting findings on expansions that cannot split or glob become info findings that say why (word-safety analysis)', async () => {
    const profile = [
      '---',
      'name: sc',
      'hooks:',
      '  post: |',
      '    START=$(date +%s)',
      '    N=$(wc -l < list.txt)',
      '    echo $START $N $(date -Iseconds) $((N + 1))',
      '    echo $(date) $(cat list.txt) $OTHER',
      '    OTHER=$1',
      '---',
      '',
    ].join('\n');
    const found = await lint(profile);
    const quoting = found.filter((d) => d.ruleId === 'shellcheck/SC2086' || d.ruleId === 'shellcheck/SC2046');
    const byPlace = Object.fromEntries(quoting.map((d) => [`${d.ruleId}@${d.line}:${d.column}`, d.severity]));
    // Digits and ISO dates: kept as info, with the reason in the message.
    expect(byPlace['shellcheck/SC2086@7:10']).toBe('info');
    expect(byPlace['shellcheck/SC2086@7:17']).toBe('info');
    expect(byPlace['shellcheck/SC2046@7:20']).toBe('info');
    expect(quoting.find((d) => d.line === 7 && d.column === 10)!.message).toMatch(/not reported: .*\$START.* cannot split or glob/);
    // `$(date)` has spaces, `$(cat …)` and `$OTHER` can be anything: still warnings.
    expect(byPlace['shellcheck/SC2046@8:10']).toBe('warning');
    expect(byPlace['shellcheck/SC2046@8:18']).toBe('warning');
    expect(byPlace['shellcheck/SC2086@8:34']).toBe('warning');
  });

  it("SC2016 on a single-quoted script a shell runs with -c, named by $SHELL or behind xargs, is info (its `$` is that shell's)", async () => {
    // claude-mem's hooks run `$SHELL -lc 'echo $PATH'`; claude-code-templates' edit-audit-log `xargs -I FILE sh -c 'echo "$(date …)"'`.
    const profile = [
      '---',
      'name: sc',
      'hooks:',
      '  post: |',
      '    export PATH="$($SHELL -lc \'echo $PATH\'):$PATH"',
      '    jq -r .f | xargs -I FILE sh -c \'echo "$(date +%s) FILE" >> log\'',
      "    echo '$HOME is not expanded here'",
      '---',
      '',
    ].join('\n');
    const found = (await lint(profile)).filter((d) => d.ruleId === 'shellcheck/SC2016');
    expect(found.map((d) => `${d.line}:${d.column} ${d.severity}`)).toEqual(['5:31 info', '6:36 info', '7:10 warning']);
    expect(found[0]!.message).toMatch(/not reported: the single-quoted text is the script `\$SHELL -lc` runs, which expands it\.$/);
    expect(found[1]!.message).toMatch(/the script `sh -c` runs/);
  });

  it('the CLI shows a suppressed quoting finding, with its reason, only under --verbose', async () => {
    const stdin = '---\nname: sc\ndescription: d\nhooks:\n  post: |\n    START=$(date +%s)\n    echo $START\n---\n';
    const run = async (extra: string[]) => {
      const io = memoryIO({ stdin, env: { NO_COLOR: '1' } });
      const code = await main(['--stdin', '--stdin-filename', 'a.md', ...extra], io);
      return { code, out: io.out() };
    };
    const quiet = await run([]);
    expect(quiet.code).toBe(0);
    expect(quiet.out).not.toContain('SC2086');
    const verbose = await run(['--verbose']);
    expect(verbose.out).toMatch(
      /7:10\s+info\s+Double quote.*not reported: `\$START` is only ever assigned values that cannot split or glob/,
    );
  });

  it('style-only codes are info by default, and the configuration raises them', async () => {
    const profile = '---\nname: sc\nhooks:\n  pre: |\n    N=$(grep x f | wc -l)\n    cat f | grep y\n    echo "$N"\n---\n';
    const found = await lint(profile);
    expect(found.filter((d) => d.ruleId === 'shellcheck/SC2126' || d.ruleId === 'shellcheck/SC2002').map((d) => d.severity)).toEqual([
      'info',
      'info',
    ]);
    const config = defaultConfig();
    config.rules['shellcheck/SC2126'] = 'warn';
    const [raised] = await lintInputs([{ filePath: '/virtual/p.md', text: profile }], {
      rules,
      config,
      batchAnalyzers: [shellcheckAnalyzer({ infoSeverity: 'warning' })],
    });
    expect(raised!.diagnostics.find((d) => d.ruleId === 'shellcheck/SC2126')!.severity).toBe('warning');
  });

  it("ShellCheck's notes that it did not follow a sourced file are info: it never can, each hook being a file of its own", async () => {
    const profile = '---\nname: sc\nhooks:\n  pre: |\n    . ./common.sh\n    source "$1"\n    echo $1\n---\n';
    const found = await lint(profile);
    expect(found.filter((d) => /SC10(90|91)|SC2086/.test(d.ruleId)).map((d) => `${d.line} ${d.ruleId} ${d.severity}`)).toEqual([
      '5 shellcheck/SC1091 info',
      '6 shellcheck/SC1090 info',
      '7 shellcheck/SC2086 warning',
    ]);
  });

  it('checks a script copied word for word into several hooks once, and reports it at each copy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-counting-shellcheck-'));
    const log = join(dir, 'files');
    const counting = join(dir, 'shellcheck');
    // Stands in for ShellCheck and counts the scripts it is given (the arguments after the options).
    writeFileSync(counting, `#!/bin/sh\nfor a; do case "$a" in *.sh) echo "$a" >> '${log}';; esac; done\nexec shellcheck "$@"\n`);
    chmodSync(counting, 0o755);
    const copied = 'echo $copied\n';
    const inputs = [
      { filePath: '/virtual/a.md', text: `---\nname: a\nhooks:\n  pre: |\n    ${copied}---\n` },
      { filePath: '/virtual/b.md', text: `---\nname: b\ndescription: b\nhooks:\n  pre: |\n    ${copied}  post: |\n    echo $other\n---\n` },
    ];
    const results = await lintInputs(inputs, {
      rules,
      config: defaultConfig(),
      batchAnalyzers: [shellcheckAnalyzer({ binary: counting, infoSeverity: 'warning' })],
    });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
    const sc2154 = results.map((r) =>
      r.diagnostics.filter((d) => d.ruleId === 'shellcheck/SC2154').map((d) => `${d.line}:${d.column} ${d.message}`),
    );
    expect(sc2154[0]).toEqual([expect.stringMatching(/^5:10 copied is referenced/)]);
    expect(sc2154[1]).toEqual([expect.stringMatching(/^6:10 copied is referenced/), expect.stringMatching(/^8:10 other is referenced/)]);
  });

  it('runs a process more than there are cores for a short run, and one a core for a long one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-counting-shellcheck-'));
    const log = join(dir, 'runs');
    const counting = join(dir, 'shellcheck');
    // Stands in for ShellCheck and writes a line for each run that is given scripts.
    writeFileSync(counting, `#!/bin/sh\ncase "$*" in *.sh*) echo run >> '${log}';; esac\nexec shellcheck "$@"\n`);
    chmodSync(counting, 0o755);
    const runsFor = async (files: number): Promise<number> => {
      const tree = join(dir, `tree-${files}`);
      mkdirSync(tree);
      for (let i = 0; i < files; i++) writeFileSync(join(tree, `p${i}.md`), `---\nname: p${i}\nhooks:\n  pre: |\n    echo "$x${i}"\n---\n`);
      writeFileSync(log, '');
      const io = memoryIO({ cwd: tree, env: { NO_COLOR: '1', VALIDATE_AGENT_HOOKS_SHELLCHECK: counting } });
      expect(await main([tree, '--format', 'json'], io)).toBe(0);
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    };
    try {
      // Slices of at least four files: 24 files make up to six.
      expect(await runsFor(24)).toBe(Math.min(shortRunLanes(), 6));
      // More than 200 files is a long run (src/cli/main.ts), read in one chunk here.
      expect(await runsFor(240)).toBe(Math.min(Math.max(1, availableParallelism()), 60));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops a ShellCheck that runs out of time, keeps the findings of the other hooks, and says which hook had none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vah-slow-shellcheck-'));
    const pids = join(dir, 'pids');
    const logging = join(dir, 'shellcheck');
    // Stands in for ShellCheck and notes the PID of each run, which must be gone when the lint is done.
    writeFileSync(logging, `#!/bin/sh\necho $$ >> '${pids}'\nexec shellcheck "$@"\n`);
    chmodSync(logging, 0o755);
    // ShellCheck 0.9's time doubles with each level of nested substitution: 24 levels take it hours.
    const deep = `echo ${'$(echo '.repeat(24)}x${')'.repeat(24)}`;
    const inputs = [
      { filePath: '/virtual/deep.md', text: `---\nname: deep\nhooks:\n  pre: |\n    echo start\n    ${deep}\n---\n` },
      { filePath: '/virtual/plain.md', text: `---\nname: plain\nhooks:\n  pre: |\n    echo $unset_here\n---\n` },
    ];
    try {
      const results = await lintInputs(inputs, {
        rules,
        config: defaultConfig(),
        batchAnalyzers: [shellcheckAnalyzer({ binary: logging, infoSeverity: 'warning', time: { baseMs: 1500, perScriptMs: 0 } })],
      });
      const found = results.map((r) =>
        r.diagnostics.filter((d) => d.ruleId.startsWith('shellcheck/')).map((d) => `${d.ruleId}@${d.line}:${d.column}`),
      );
      expect(found[0]).toEqual(['shellcheck/timeout@5:5']);
      expect(results[0]!.diagnostics[0]!.message).toMatch(/did not finish this hook within 2 s and was stopped/);
      expect(found[1]!.sort()).toEqual(['shellcheck/SC2086@5:10', 'shellcheck/SC2154@5:10']);
      // Both together, then each alone.
      const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
      expect(started).toHaveLength(3);
      for (const pid of started) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('batches many hooks of many files over a few processes', async () => {
    const inputs = Array.from({ length: 40 }, (_, i) => ({
      filePath: `/virtual/${i}.md`,
      text: `---\nname: f${i}\nhooks:\n  pre: |\n    echo $x${i}\n---\n`,
    }));
    const results = await lintInputs(inputs, {
      rules,
      config: defaultConfig(),
      batchAnalyzers: [shellcheckAnalyzer({ infoSeverity: 'warning', processes: 2 })],
    });
    results.forEach((result) =>
      expect(result.diagnostics.map((d) => `${d.ruleId}@${d.line}:${d.column}`)).toContain(`shellcheck/SC2154@5:10`),
    );
    expect(results[7]!.diagnostics.find((d) => d.ruleId === 'shellcheck/SC2154')!.message).toContain('x7 is referenced');
  });
});
