import { fileURLToPath } from 'node:url';

/** The file path behind a URI: configuration is found next to it, and messages name it. */
export function uriToPath(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      // fall through
    }
  }
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:/i, '');
  try {
    return decodeURIComponent(path) || 'untitled.md';
  } catch {
    // A malformed escape (`%ZZ`): the path as written still names the document.
    return path || 'untitled.md';
  }
}

/**
 * Agent profiles live under `.claude/agents/`; elsewhere Markdown with
 * frontmatter is linted when it is where hooks live (a `.claude` directory:
 * skills' SKILL.md, commands; a file named SKILL.md) or reads like a profile
 * (a top-level `name` or `hooks` key): a blog post's or a docs site's
 * frontmatter (`title`, `date`) is not an agent's. And the JSON files Claude
 * Code reads hooks from: settings, plugin hook files and manifests.
 */
export function looksLikeProfile(filePath: string, text: string): boolean {
  if (HOOK_JSON.test(filePath)) return true;
  if (/\.json$/i.test(filePath)) return false;
  if (/[\\/]\.claude[\\/]agents[\\/]/.test(filePath)) return true;
  if (!/^\uFEFF?---[ \t]*\r?\n/.test(text)) return false;
  if (/[\\/]\.claude[\\/]|(?:^|[\\/])SKILL\.md$/.test(filePath)) return true;
  const close = /\n---[ \t]*(?:\r?\n|$)/.exec(text);
  const frontmatter = text.slice(0, close ? close.index : Math.min(text.length, 64 * 1024));
  return /\n(?:name|hooks)[ \t]*:/.test(frontmatter);
}

const HOOK_JSON = /(?:^|[\\/])(?:\.claude[\\/]settings(?:\.local)?\.json|hooks[\\/]hooks\.json|\.claude-plugin[\\/]plugin\.json)$/;
