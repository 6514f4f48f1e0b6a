import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { main } from '../src/cli/main.js';
import { ConfigResolver } from '../src/config/load.js';
import { memoryIO } from '../src/io.js';
import { defaultConfig } from '../src/engine/config.js';
import { lintInputs } from '../src/engine/lint.js';

async function lint(text: string, inlineConfig = true) {
  const config = { ...defaultConfig(), inlineConfig };
  const [result] = await lintInputs([{ filePath: '/virtual/p.md', text }], { rules, config });
  return result!.diagnostics.map((d) => `${d.ruleId}@${d.line}`);
}

const profile = (hooks: string) => `---\nname: s\ndescription: d\nhooks:\n${hooks}---\n`;

describe('inline suppressions', () => {
  it('disable-next-line in a script, with a reason, for listed rules only', async () => {
    const text = profile(
      '  pre: |\n    # validate-agent-hooks-disable-next-line command-rm-rf -- our own build dir\n    rm -rf ./build\n    rm -rf ./dist\n',
    );
    expect(await lint(text)).toEqual(['command-rm-rf@8']);
    expect(await lint(text, false)).toEqual(['command-rm-rf@7', 'command-rm-rf@8']);
  });

  it('a directive-looking line in a heredoc body or a multi-line string is text, not a comment: it suppresses nothing', async () => {
    const heredoc = profile('  pre: |\n    cat > notes.txt <<EOF\n    # validate-agent-hooks-disable\n    EOF\n    rm -rf ./build\n');
    expect(await lint(heredoc)).toEqual(['command-rm-rf@9']);
    const string = profile('  pre: |\n    echo "start\n    # validate-agent-hooks-disable-next-line\n    end"\n    rm -rf ./build\n');
    expect(await lint(string)).toEqual(['command-rm-rf@9']);
    // The same line as a comment of its own still works.
    const comment = profile(
      '  pre: |\n    cat > notes.txt <<EOF\n    text\n    EOF\n    # validate-agent-hooks-disable\n    rm -rf ./build\n',
    );
    expect(await lint(comment)).toEqual([]);
  });

  it('in a JSON command string too: a heredoc line is not a directive', async () => {
    const command = 'cat > n <<EOF\n# validate-agent-hooks-disable-next-line\nEOF\nrm -rf ./build';
    const json = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
    const [result] = await lintInputs([{ filePath: '/p/.claude/settings.json', text: json }], { rules, config: defaultConfig() });
    expect(result!.diagnostics.map((d) => d.ruleId)).toContain('command-rm-rf');
    const real = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: '# validate-agent-hooks-disable-next-line\nrm -rf ./build' }] }] },
    });
    const [clean] = await lintInputs([{ filePath: '/p/.claude/settings.json', text: real }], { rules, config: defaultConfig() });
    expect(clean!.diagnostics.map((d) => d.ruleId)).not.toContain('command-rm-rf');
  });

  it('disable covers the whole script it is in', async () => {
    expect(
      await lint(
        profile(
          '  pre: |\n    # validate-agent-hooks-disable command-rm-rf, command-sudo\n    rm -rf ./a\n    sudo ls\n  post: |\n    rm -rf ./b\n',
        ),
      ),
    ).toEqual(['command-rm-rf@10']);
  });

  it('a YAML comment before a key covers that key and its value', async () => {
    const text = profile(
      '  # validate-agent-hooks-disable-next-line hook-name-unknown -- used by our own runner\n  on_blocking_starts: |\n    echo hi\n  # validate-agent-hooks-disable command-sudo\n  post: |\n    sudo ls\n  pre: |\n    sudo ls\n',
    );
    expect(await lint(text)).toEqual(['command-sudo@12']);
  });

  it('works in the shell code blocks of the Markdown body too', async () => {
    const body =
      '\n```bash\n# validate-agent-hooks-disable-next-line lifecycle-antipattern -- documenting the old way\ninvoke-waiting-mode.sh enter\ninvoke-waiting-mode.sh wake\n```\n';
    expect(await lint(profile('  pre: |\n    echo hi\n') + body)).toEqual(['lifecycle-antipattern@12']);
  });

  it('unused suppressions are reported', async () => {
    expect(await lint(profile('  pre: |\n    # validate-agent-hooks-disable-next-line command-sudo\n    echo fine\n'))).toEqual([
      'suppression-unused@6',
    ]);
  });
});

describe('configuration file', () => {
  function tree(config: string, name = '.validate-agent-hooks.yaml') {
    const dir = mkdtempSync(join(tmpdir(), 'vah-config-'));
    mkdirSync(join(dir, 'agents', 'drafts'), { recursive: true });
    writeFileSync(join(dir, name), config);
    writeFileSync(join(dir, 'agents', 'a.md'), profile('  pre: |\n    sudo ls\n    rm -rf ./x\n    kubectl delete pod x\n'));
    writeFileSync(join(dir, 'agents', 'drafts', 'b.md'), profile('  pre: |\n    rm -rf /\n'));
    return dir;
  }
  async function run(dir: string, args: string[] = []) {
    const io = memoryIO({ cwd: dir });
    const code = await main(['agents', '--no-shellcheck', '--format', 'json', ...args], io);
    return {
      code,
      err: io.err(),
      ids:
        code === 2
          ? []
          : (JSON.parse(io.out()) as { messages: { ruleId: string; severity: number }[] }[]).flatMap((r) =>
              r.messages.map((m) => `${m.ruleId}:${m.severity}`),
            ),
    };
  }

  it('is found from the linted file upwards: severities, ignore globs, forbidden and allowed commands', async () => {
    const dir = tree(
      'rules:\n  command-sudo: off\n  command-rm-rf: warn\nignorePatterns: [drafts/]\nforbiddenCommands:\n  - commands: [kubectl]\n    argument: "^delete$"\n    message: no deletes.\n',
    );
    const { ids, code } = await run(dir);
    expect(ids.sort()).toEqual(['command-custom:2', 'command-rm-rf:1']);
    expect(code).toBe(1);
  });

  it('allowedCommands exempts a command from the command rules; JSON works too', async () => {
    const dir = tree('{"allowedCommands": ["sudo", "rm"], "ignorePatterns": ["drafts"]}', '.validate-agent-hooks.json');
    expect((await run(dir)).ids).toEqual([]);
  });

  it('--config overrides discovery', async () => {
    const dir = tree('rules:\n  command-sudo: off\n');
    writeFileSync(join(dir, 'strict.yaml'), 'rules: {}\n');
    expect((await run(dir, ['--config', 'strict.yaml'])).ids).toContain('command-sudo:2');
  });

  it('directories governed by the same files share one configuration (so they lint as one batch, one ShellCheck run)', () => {
    const dir = tree('rules:\n  command-sudo: off\n');
    mkdirSync(join(dir, 'agents', 'other', 'deep'), { recursive: true });
    mkdirSync(join(dir, 'agents', 'own'), { recursive: true });
    writeFileSync(join(dir, 'agents', 'own', '.validate-agent-hooks.yaml'), 'rules:\n  command-rm-rf: off\n');
    mkdirSync(join(dir, 'agents', 'rooted'), { recursive: true });
    writeFileSync(join(dir, 'agents', 'rooted', '.validate-agent-hooks.yaml'), 'root: true\n');
    const resolver = new ConfigResolver();
    const shared = resolver.forFile(join(dir, 'agents', 'a.md'));
    expect(resolver.forFile(join(dir, 'agents', 'drafts', 'b.md'))).toBe(shared);
    expect(resolver.forFile(join(dir, 'agents', 'other', 'deep', 'c.md'))).toBe(shared);
    expect(shared.config.rules['command-sudo']).toBe('off');
    const own = resolver.forFile(join(dir, 'agents', 'own', 'd.md'));
    expect(own).not.toBe(shared);
    expect(own.sources).toEqual([join(dir, '.validate-agent-hooks.yaml'), join(dir, 'agents', 'own', '.validate-agent-hooks.yaml')]);
    expect(own.config.rules).toMatchObject({ 'command-sudo': 'off', 'command-rm-rf': 'off' });
    const rooted = resolver.forFile(join(dir, 'agents', 'rooted', 'e.md'));
    expect(rooted.sources).toEqual([join(dir, 'agents', 'rooted', '.validate-agent-hooks.yaml')]);
    expect(rooted.config.rules['command-sudo']).toBeUndefined();
  });

  it('an invalid configuration is exit 2 with its file, line and column', async () => {
    const unknown = await run(tree('rules:\n  command-sudo: off\nshelcheck: {}\n'));
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/\.validate-agent-hooks\.yaml:3:1: Invalid configuration: unknown key `shelcheck`/);
    const badLevel = await run(tree('rules:\n  command-sudo: loud\n'));
    expect(badLevel.err).toMatch(/\.validate-agent-hooks\.yaml:2:17: Invalid configuration/);
    const badYaml = await run(tree('rules: [\n'));
    expect(badYaml.code).toBe(2);
    expect(badYaml.err).toMatch(/\.validate-agent-hooks\.yaml:\d+:\d+: Invalid configuration/);
  });

  it('a rule the tool does not have is exit 2 at its key, with what was meant (as ESLint refuses a rule it has no definition for)', async () => {
    const typo = await run(tree('rules:\n  command-sudo: off\n  hook-name-unkown: off\n'));
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(
      /\.validate-agent-hooks\.yaml:3:3: Invalid configuration: unknown rule `hook-name-unkown`\. Did you mean `hook-name-unknown`\?/,
    );
    const bare = await run(tree('rules:\n  SC2086: off\n'));
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/:2:3: Invalid configuration: unknown rule `SC2086` \(ShellCheck's codes are written `shellcheck\/SC2086`\)/);
    // Any ShellCheck code is a rule (ShellCheck has hundreds, and adds more).
    expect((await run(tree('rules:\n  shellcheck/SC2086: off\n  shellcheck/SC9999: warn\n'))).code).not.toBe(2);
    // The warning of a hook ShellCheck did not finish is configured as its codes are; another word after `shellcheck/` is a typo.
    expect((await run(tree('rules:\n  shellcheck/timeout: error\n'))).code).not.toBe(2);
    expect((await run(tree('rules:\n  shellcheck/timeuot: error\n'))).code).toBe(2);
  });
});
