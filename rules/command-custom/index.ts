import { defineRule } from '../../src/engine/rule.js';
import { everyCommand, matchesPattern } from '../../src/engine/command-rule.js';
import type { LintConfig } from '../../src/engine/config.js';
import { basename } from '../../src/shell/commands.js';

/** The commands a project forbids on top of the built-in ones (`forbiddenCommands` in the configuration). */
export default defineRule<{ config?: LintConfig }>({
  id: 'command-custom',
  meta: {
    description: "A command the project's configuration forbids (`forbiddenCommands`).",
    severity: 'error',
    category: 'shell',
    runtimes: ['claude-flow', 'claude-code'],
  },
  messages: { forbidden: 'Disallowed `{{command}}`: {{message}}' },
  checkScript(context) {
    const config = context.options.config;
    if (!config?.forbiddenCommands.length) return;
    const allowed = new Set(config.allowedCommands);
    for (const command of everyCommand(context)) {
      if (command.name.value !== undefined && allowed.has(basename(command.name.value))) continue;
      const pattern = config.forbiddenCommands.find((p) => matchesPattern(command, { ...p, messageId: 'forbidden' }));
      if (!pattern) continue;
      const report = {
        messageId: 'forbidden',
        data: { command: command.name.value ?? command.name.text, message: pattern.message },
        range: context.range(command.start, command.end),
      };
      context.report(pattern.severity ? { ...report, severity: pattern.severity } : report);
    }
  },
});
