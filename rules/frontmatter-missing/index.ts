import { basename } from 'node:path';
import { defineRule } from '../../src/engine/rule.js';

interface Options {
  /** File names (`*` matches any text) that are documentation beside the profiles, never profiles. */
  documentationFiles?: string[];
  /** A file whose first line is a Markdown heading and that has no `---` line anywhere is documentation. */
  headingFirstIsDocumentation?: boolean;
}

const DEFAULT_DOCUMENTATION_FILES = ['README.md', '*SUMMARY*.md', 'CHANGELOG.md'];

/**
 * A profile without frontmatter has no name, description or hooks. Agent
 * directories also hold their own documentation (READMEs, migration
 * summaries, changelogs, notes that open with a heading): those are not
 * profiles, and reporting them was most of this rule's findings on real
 * projects.
 */
export default defineRule<Options>({
  id: 'frontmatter-missing',
  meta: {
    description: 'A Markdown file under the agents directory has no YAML frontmatter.',
    severity: 'warning',
    category: 'frontmatter',
  },
  messages: {
    missing: 'Expected YAML frontmatter between `---` lines at the start of the profile.',
  },
  optionsSchema: {
    type: 'object',
    properties: {
      documentationFiles: { type: 'array', items: { type: 'string' } },
      headingFirstIsDocumentation: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  defaultOptions: { documentationFiles: DEFAULT_DOCUMENTATION_FILES, headingFirstIsDocumentation: true },
  checkProfile(context) {
    const { profile, options } = context;
    if (!profile.frontmatterMissing) return;
    const name = basename(profile.path);
    if ((options.documentationFiles ?? DEFAULT_DOCUMENTATION_FILES).some((pattern) => matchesName(pattern, name))) return;
    const lines = profile.lines;
    const first = lines.lineText(1);
    if (options.headingFirstIsDocumentation !== false && /^#{1,6}\s/.test(first) && !hasFenceLine(lines)) return;
    context.report({
      messageId: 'missing',
      // Up to the end of the first line, which is column 1 in an empty file: a range never ends past the text.
      range: { line: 1, column: 1, endLine: 1, endColumn: first.length + 1 },
    });
  },
});

function matchesName(pattern: string, name: string): boolean {
  const expression = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  return expression.test(name);
}

function hasFenceLine(lines: { lineCount: number; lineText(line: number): string }): boolean {
  for (let line = 1; line <= lines.lineCount; line++) if (/^---[ \t]*\r?$/.test(lines.lineText(line))) return true;
  return false;
}
