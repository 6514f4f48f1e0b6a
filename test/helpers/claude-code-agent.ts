/**
 * Agent frontmatter with one Claude Code handler (`matcher: Bash`) running
 * `script` as a `|` block: the script's first line is line 10, column 13
 * (line 11 with a `flag` line such as `async: true` before `command`).
 */
export function claudeCodeAgent(script: string, event = 'PreToolUse', flag?: string): string {
  const lines = ['---', 'name: gate', 'description: Checks commands.', 'hooks:', `  ${event}:`, '    - matcher: Bash', '      hooks:'];
  lines.push('        - type: command', ...(flag ? [`          ${flag}`] : []), '          command: |');
  lines.push(...script.split('\n').map((line) => `            ${line}`));
  return [...lines, '---', 'Body.', ''].join('\n');
}
