import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellcheckVersion } from '../../src/shellcheck/index.js';

/**
 * The README's Neovim snippet, taken from the README, in a headless Neovim
 * (Debian's 0.7 here; CI installs the same): a project with the package
 * installed (its bin linked into node_modules/.bin, where `npx` finds it
 * without the network), a profile opened, and the findings read back with
 * `vim.diagnostic.get`. Needs `npm run build` first (`npm test` does it).
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const nvimMissing = nvim.status === 0 ? undefined : 'Neovim is not installed (apt-get install neovim; CI installs it)';
if (nvimMissing) console.warn(`neovim.test.ts: skipped: ${nvimMissing}.`);
const hasShellcheck = shellcheckVersion() !== undefined;

function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const editors = readme.slice(readme.indexOf('## Editors'));
  const match = /```lua\n([\s\S]*?)```/.exec(editors);
  if (!match) throw new Error("no ```lua block in the README's Editors section");
  return match[1]!;
}

const PROFILE = `---
name: editor-check
description: A profile for the editor test
hooks:
  on_blocking_start: |
    dir=$(mktemp -d)
    cp $TASK_FILE $dir
    rm -rf "$WORKDIR"
---
`;

const DRIVER = `
vim.cmd('filetype on')
dofile(vim.env.SNIPPET)
vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.PROFILE))
if (vim.env.WANT or '') == '' then -- a file the snippet must leave alone: no client attached
  vim.wait(1000)
  local f = io.open(vim.env.OUT, 'w')
  f:write(vim.fn.json_encode({ clients = #vim.tbl_keys(vim.lsp.buf_get_clients(0)) }))
  f:close()
  vim.cmd('qa!')
  return
end
local want = vim.split(vim.env.WANT, ',')
local function codes()
  local seen = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code then seen[tostring(code):gsub('/.*', '/')] = true end
  end
  return seen
end
vim.wait(60000, function()
  local seen = codes()
  for _, code in ipairs(want) do if not seen[code] then return false end end
  return true
end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, { lnum = d.lnum, col = d.col, source = d.source, message = d.message,
    code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) })
end
local f = io.open(vim.env.OUT, 'w')
f:write(vim.fn.json_encode({ version = vim.version(), diagnostics = out }))
f:close()
vim.cmd('qa!')
`;

const SETTINGS = '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "rm -rf \\"$HOME\\"" }] }]\n  }\n}\n';

/** A project with the package installed, the README's snippet and the driver; the file opened; what the driver wrote. */
function openInNeovim(file: string, want: string[]): Record<string, unknown> {
  const project = mkdtempSync(join(tmpdir(), 'vah-nvim-'));
  mkdirSync(join(project, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(project, '.claude', 'agents', 'editor-check.md'), PROFILE);
  writeFileSync(join(project, '.claude', 'settings.json'), SETTINGS);
  writeFileSync(join(project, 'package.json'), '{ "name": "x", "scripts": { "clean": "rm -rf /" } }\n');
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'bin', 'validate-agent-hooks'), join(project, 'node_modules', '.bin', 'validate-agent-hooks'));
  writeFileSync(join(project, 'snippet.lua'), readmeSnippet());
  writeFileSync(join(project, 'driver.lua'), DRIVER);
  const run = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', 'luafile driver.lua'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      SNIPPET: join(project, 'snippet.lua'),
      PROFILE: file,
      OUT: join(project, 'out.json'),
      WANT: want.join(','),
      XDG_STATE_HOME: join(project, 'state'),
      XDG_CACHE_HOME: join(project, 'cache'),
    },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(readFileSync(join(project, 'out.json'), 'utf8')) as Record<string, unknown>;
}

type Shown = { lnum: number; col: number; code: string; source: string; message: string };

describe.skipIf(nvimMissing !== undefined)(`Neovim with the README's snippet${nvimMissing ? ` [skipped: ${nvimMissing}]` : ''}`, () => {
  it("starts the language server and shows its findings, ShellCheck's included", () => {
    const { diagnostics } = openInNeovim('.claude/agents/editor-check.md', [
      'command-rm-rf',
      ...(hasShellcheck ? ['shellcheck/'] : []),
    ]) as {
      diagnostics: Shown[];
    };
    const rmRf = diagnostics.find((d) => d.code === 'command-rm-rf');
    expect(rmRf).toMatchObject({ source: 'validate-agent-hooks' });
    expect(rmRf!.message).toMatch(/^Disallowed `rm -rf`/);
    const lines = PROFILE.split('\n');
    expect(lines[rmRf!.lnum]!.slice(rmRf!.col)).toMatch(/^rm -rf/);
    if (hasShellcheck) {
      const sc = diagnostics.find((d) => d.code === 'shellcheck/SC2086');
      expect(sc).toMatchObject({ lnum: 6, col: 7 });
    }
  }, 180_000);

  it('attaches to the settings file Claude Code reads hooks from, at the command inside its JSON string', () => {
    const { diagnostics } = openInNeovim('.claude/settings.json', ['command-rm-rf']) as { diagnostics: Shown[] };
    const rmRf = diagnostics.find((d) => d.code === 'command-rm-rf');
    expect(rmRf).toMatchObject({ source: 'validate-agent-hooks', lnum: 2 });
    expect(SETTINGS.split('\n')[2]!.slice(rmRf!.col)).toMatch(/^rm -rf/);
  }, 180_000);

  it('leaves other JSON files alone: no language server for package.json', () => {
    expect(openInNeovim('package.json', [])).toEqual({ clients: 0 });
  }, 180_000);
});
