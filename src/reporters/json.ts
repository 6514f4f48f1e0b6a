import { countBySeverity } from '../diagnostics.js';
import type { Reporter } from './types.js';

/**
 * ESLint's json formatter shape, so tools that read ESLint output read ours:
 * severity 2 is an error, 1 a warning; info findings (shown with `--verbose`)
 * are 1 with `"level": "info"`.
 */
export const jsonReporter: Reporter = (results) => {
  const files = results.map((result) => {
    const { errors, warnings } = countBySeverity(result.diagnostics);
    const fixable = result.diagnostics.filter((d) => d.fixes?.some((f) => f.safe));
    return {
      filePath: result.filePath,
      messages: result.diagnostics.map((d) => {
        const message: Record<string, unknown> = {
          ruleId: d.ruleId,
          severity: d.severity === 'error' ? 2 : 1,
          message: d.message,
          line: d.line,
          column: d.column,
          endLine: d.endLine,
          endColumn: d.endColumn,
        };
        if (d.severity === 'info') message.level = 'info';
        if (d.messageId) message.messageId = d.messageId;
        if (d.hook) message.hook = d.hook;
        if (d.docsUrl) message.docsUrl = d.docsUrl;
        if (d.related) message.related = d.related;
        if (d.fixes) message.fixes = d.fixes;
        return message;
      }),
      errorCount: errors,
      warningCount: warnings,
      fatalErrorCount: 0,
      fixableErrorCount: fixable.filter((d) => d.severity === 'error').length,
      fixableWarningCount: fixable.filter((d) => d.severity !== 'error').length,
    };
  });
  return `${JSON.stringify(files, null, 2)}\n`;
};
