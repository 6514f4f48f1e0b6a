// The syntax-tree index answers "nodes of these types at or below this node" for every rule; it must
// give exactly what a walk of the subtree gives, for any node asked from, on real scripts and on
// broken ones (error recovery makes empty and same-range nodes).
import { describe, expect, it } from 'vitest';
import { extractHooks } from '../../src/hooks/extract.js';
import { profileFromBytes } from '../../src/profile/profile.js';
import { nodesOfType } from '../../src/shell/node-index.js';
import { loadShellParser, parseShell, type SyntaxNode } from '../../src/shell/parser.js';
import { corpusFiles, corpusMissing } from '../hardening/helpers.js';

const TYPE_SETS = [
  ['command'],
  ['file_redirect'],
  ['heredoc_body'],
  ['variable_assignment', 'for_statement'],
  ['simple_expansion', 'expansion', 'command_substitution'],
  ['raw_string'],
  ['ERROR'],
  ['ERROR', 'expansion'],
  ['word', 'string', 'command_name'],
];

/** The reference: a pre-order walk of the subtree, root included, named nodes of the types. */
function walk(root: SyntaxNode, types: readonly string[]): number[] {
  const out: number[] = [];
  const visit = (node: SyntaxNode): void => {
    if (node.isNamed && types.includes(node.type)) out.push(node.id);
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return out;
}

function allNodes(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [root];
  for (const child of root.children) if (child) out.push(...allNodes(child));
  return out;
}

const EDGE_SCRIPTS = [
  'echo "$(date)" | tee log && rm -rf "$TMP"/x',
  'a | b | c\nrm -rf x && y',
  'if [ -f x ]; then\n  cat <<EOF\n$HOME\nEOF\nfi',
  'for i in 1 2; do x=$i; done; f() { echo "${1:-}"; }',
  'echo "unterminated',
  'if then fi ((',
  '$(',
  'x=1 y=$(( 2 + ',
  '',
];

function scripts(): string[] {
  const out = [...EDGE_SCRIPTS];
  if (!corpusMissing)
    for (const { path, bytes } of corpusFiles()) {
      const loaded = profileFromBytes(path, bytes);
      if (loaded.ok) for (const hook of extractHooks(loaded.profile)) out.push(hook.text);
    }
  return out;
}

describe('syntax-tree index', () => {
  it('gives what a walk of the subtree gives, from every node, on the corpus and broken scripts', async () => {
    if (corpusMissing) console.log(`node-index: corpus part skipped: ${corpusMissing}`);
    const parser = await loadShellParser();
    let questions = 0;
    for (const text of scripts()) {
      const tree = parseShell(parser, text);
      try {
        // Asked in a different order per tree, so types are also added to the index after it was built.
        for (const types of text.length % 2 ? TYPE_SETS : [...TYPE_SETS].reverse())
          for (const root of allNodes(tree.rootNode)) {
            questions++;
            expect(
              nodesOfType(root, types).map((n) => n.id),
              `${JSON.stringify(text.slice(0, 80))} ${types.join(',')} from ${root.type} ${root.startIndex}-${root.endIndex}`,
            ).toEqual(walk(root, types));
          }
      } finally {
        tree.delete();
      }
    }
    expect(questions).toBeGreaterThan(1000);
  }, 120_000);
});
