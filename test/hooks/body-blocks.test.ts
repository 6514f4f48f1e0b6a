import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyCodeBlocks } from '../../src/hooks/body-blocks.js';
import { profileFromText, type Profile } from '../../src/profile/profile.js';
import { seededRandom } from '../helpers/random.js';

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus', 'claude-flow-novice');
const hasCorpus = existsSync(CORPUS);
if (!hasCorpus) console.warn('body-blocks.test.ts: ../shared/corpus is absent; the corpus half of the differential test is skipped.');

/**
 * The definition, line by line (CommonMark fences): every line of the body is
 * read, an opening fence starts a block, a closing fence of the same kind and
 * at least its length ends it, every line between is content. The
 * implementation finds the fence-like lines with one search instead; the two
 * must agree on every block, its text and its positions.
 */
function reference(profile: Profile): { line: number; contentLines: number[]; indent: number }[] {
  const lines = profile.lines;
  const blocks: { line: number; contentLines: number[]; indent: number }[] = [];
  let open: { indent: number; fence: string; line: number; shell: boolean; contentLines: number[] } | undefined;
  for (let line = lines.positionAt(profile.bodyStart).line; line <= lines.lineCount; line++) {
    const content = lines.lineText(line);
    if (!open) {
      const match = /^( {0,3})(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/.exec(content);
      if (!match) continue;
      const fence = match[2]!;
      if (fence.startsWith('`') && content.slice(match[1]!.length + fence.length).includes('`')) continue;
      open = {
        indent: match[1]!.length,
        fence,
        line,
        shell: ['bash', 'sh', 'shell', 'zsh'].includes(match[3]!.toLowerCase()),
        contentLines: [],
      };
      continue;
    }
    const closing = /^ {0,3}(`+|~+)[ \t]*$/.exec(content);
    if (closing && closing[1]![0] === open.fence[0] && closing[1]!.length >= open.fence.length) {
      if (open.shell) blocks.push(open);
      open = undefined;
      continue;
    }
    open.contentLines.push(line);
  }
  if (open?.shell) blocks.push(open);
  return blocks;
}

function agrees(path: string, text: string): number {
  const profile = profileFromText(path, text);
  const found = bodyCodeBlocks(profile);
  const expected = reference(profile);
  expect(
    found.map((b) => b.name),
    text,
  ).toEqual(expected.map((b) => `body:${b.line}`));
  found.forEach((block, i) => {
    const want = expected[i]!;
    const lines = want.contentLines.map((line) => {
      const start = profile.lines.lineStarts[line - 1]!;
      let skip = 0;
      while (skip < want.indent && text[start + skip] === ' ') skip++;
      return text.slice(start + skip, profile.lines.lineEnd(line));
    });
    expect(block.text, text).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(block.segments?.length, text).toBe(lines.length);
  });
  return found.length;
}

const PIECES = [
  '```bash',
  '```sh',
  '``` Shell title',
  '~~~zsh',
  '~~~~ bash',
  '````bash',
  '```js',
  '```',
  '~~~',
  '````',
  '   ```bash',
  '    ```bash',
  '  ~~~',
  '``` `bash`',
  '```bash ```',
  'echo "$TASK"',
  '  rm -rf "$DIR"',
  'text with ``` inside',
  '',
  '# heading',
  '``',
  '```\t',
  '``` \r',
  'a\rb',
  'x\u2028```bash',
  '\r```bash',
];

describe('body code blocks', () => {
  it('agree with the line-by-line definition on generated Markdown (fences of both kinds and lengths, indents, info strings, CR, unclosed)', () => {
    const r = seededRandom(7);
    let blocks = 0;
    for (let round = 0; round < 2000; round++) {
      const count = 1 + Math.floor(r() * 14);
      const body = Array.from({ length: count }, () => PIECES[Math.floor(r() * PIECES.length)]!);
      const eol = r() < 0.3 ? '\r\n' : '\n';
      blocks += agrees('/x/agent.md', `---\nname: a\n---\n${body.join(eol)}${r() < 0.5 ? eol : ''}`);
    }
    // Both halves are exercised: many shell blocks are found.
    expect(blocks).toBeGreaterThan(500);
  });

  it.skipIf(!hasCorpus)('agree with the line-by-line definition on every corpus profile', () => {
    let blocks = 0;
    for (const file of readdirSync(CORPUS, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md')))
      blocks += agrees(file, readFileSync(join(CORPUS, file), 'utf8'));
    expect(blocks).toBeGreaterThan(100);
  });
});
