import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { GIT_ENV, ROOT, snapshot } from '../helpers/snapshot.js';

/**
 * The composite action (action.yml), its steps' commands run as the runner
 * runs them: each `run:` with `bash --noprofile --norc -eo pipefail`, its
 * `env:` and `working-directory:` evaluated from the inputs, GITHUB_OUTPUT
 * collected into the step's outputs. The action's own directory is a snapshot
 * of this working tree, installed by the action's install step (npm ci and the
 * build: the npm registry is needed, as on a runner). The upload step is a
 * GitHub action of its own; its condition and input are checked, not run.
 */
interface Step {
  name: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const BAD = '---\nname: bad\ndescription: bad\nhooks:\n  on_blocking_start: |\n    rm -rf "$WORKDIR"\n---\n';

interface Context {
  inputs: Record<string, string>;
  actionPath: string;
  outputs: Record<string, Record<string, string>>;
}

/** The few expressions action.yml uses: inputs, github.action_path, step outputs, and `x == 'y'`. */
function evaluate(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    const value = (ref: string): string => {
      let m: RegExpExecArray | null;
      if ((m = /^inputs\.([\w-]+)$/.exec(ref))) return ctx.inputs[m[1]!] ?? '';
      if (ref === 'github.action_path') return ctx.actionPath;
      if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(ref))) return ctx.outputs[m[1]!]?.[m[2]!] ?? '';
      throw new Error(`action.test.ts does not know the expression ${ref}`);
    };
    const eq = /^(\S+)\s*==\s*'([^']*)'$/.exec(expr);
    if (eq) return String(value(eq[1]!) === eq[2]);
    return value(expr);
  });
}

function runAction(actionPath: string, workspace: string, inputs: Record<string, string>, skip: string[] = []) {
  const ctx: Context = {
    inputs: { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])), ...inputs },
    actionPath,
    outputs: {},
  };
  const log: { step: string; status: number | null; stdout: string; stderr: string }[] = [];
  const uploads: string[] = [];
  for (const step of action.runs.steps) {
    if (skip.includes(step.name) || (step.if !== undefined && evaluate(step.if, ctx) !== 'true')) continue;
    if (step.uses) {
      if (step.uses.startsWith('github/codeql-action/upload-sarif@')) uploads.push(evaluate(step.with!.sarif_file!, ctx));
      continue;
    }
    expect(step.shell).toBe('bash');
    const script = join(mkdtempSync(join(tmpdir(), 'vah-action-step-')), 'step.sh');
    writeFileSync(script, step.run!);
    const output = `${script}.out`;
    writeFileSync(output, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, ctx)]));
    const cwd = step['working-directory'] ? evaluate(step['working-directory'], ctx) : workspace;
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...env, GITHUB_OUTPUT: output, GITHUB_ACTION_PATH: actionPath, GITHUB_WORKSPACE: workspace, NO_COLOR: '1' },
    });
    log.push({ step: step.name, status: result.status, stdout: result.stdout, stderr: result.stderr });
    if (step.id)
      ctx.outputs[step.id] = Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
    if (result.status !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, evaluate(v.value, ctx)]));
  return { log, uploads, outputs };
}

describe('action.yml', () => {
  it('is a composite action that installs ShellCheck, runs --all --ci, writes SARIF and may upload it', () => {
    expect(action.runs.using).toBe('composite');
    const runs = action.runs.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toMatch(/apt-get install [^\n]*shellcheck/);
    expect(runs).toMatch(/--all --ci [^\n]*--format sarif > "\$VAH_SARIF"/);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.if).toMatch(/inputs\.upload == 'true'/);
    expect(upload?.with?.sarif_file).toBe('${{ inputs.sarif-file }}');
  });

  describe('its steps, run', () => {
    let actionPath: string;
    let workspace: string;
    beforeAll(() => {
      actionPath = join(mkdtempSync(join(tmpdir(), 'vah-action-')), 'validate-agent-hooks');
      snapshot(actionPath);
      workspace = mkdtempSync(join(tmpdir(), 'vah-workspace-'));
      execFileSync('git', ['init', '-q'], { cwd: workspace, env: { ...process.env, ...GIT_ENV } });
      mkdirSync(join(workspace, 'services', 'api', '.claude', 'agents'), { recursive: true });
      writeFileSync(join(workspace, 'services', 'api', '.claude', 'agents', 'bad.md'), BAD);
    }, 60_000);

    it('lint, write SARIF with repository-relative paths, annotate, ask for the upload, and fail on errors', () => {
      mkdirSync(join(workspace, 'out'));
      const second = runAction(actionPath, workspace, { root: 'services/api', 'sarif-file': 'out/hooks.sarif' });
      const steps = Object.fromEntries(second.log.map((l) => [l.step, l]));
      expect(steps['Install ShellCheck']?.status).toBe(0);
      expect(steps['Install validate-agent-hooks']?.status, steps['Install validate-agent-hooks']?.stderr).toBe(0);
      expect(steps['Lint agent profiles']?.status, steps['Lint agent profiles']?.stderr).toBe(0);
      expect(second.outputs).toEqual({ 'sarif-file': 'out/hooks.sarif', 'exit-code': '1' });
      const sarif = JSON.parse(readFileSync(join(workspace, 'out', 'hooks.sarif'), 'utf8'));
      expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain('command-rm-rf');
      expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('services/api/.claude/agents/bad.md');
      expect(steps['Lint agent profiles']?.stdout).toMatch(/^::error file=services\/api\/\.claude\/agents\/bad\.md,line=6,/m);
      expect(second.uploads).toEqual(['out/hooks.sarif']);
      expect(steps.Verdict?.status).toBe(1);
    }, 900_000);

    it('without upload, annotations or failing: writes the SARIF only, and passes', () => {
      // Installed by the test before (this one runs after it, in the same file).
      const { log, uploads, outputs } = runAction(
        actionPath,
        workspace,
        { root: 'services/api', upload: 'false', annotations: 'false', 'fail-on-error': 'false' },
        ['Install validate-agent-hooks'],
      );
      expect(log.map((l) => [l.step, l.status])).toEqual([
        ['Install ShellCheck', 0],
        ['Lint agent profiles', 0],
        ['Verdict', 0],
      ]);
      expect(log[1]!.stdout).toBe('');
      expect(uploads).toEqual([]);
      expect(outputs['exit-code']).toBe('1');
      expect(JSON.parse(readFileSync(join(workspace, 'validate-agent-hooks.sarif'), 'utf8')).version).toBe('2.1.0');
    }, 900_000);
  });
});
