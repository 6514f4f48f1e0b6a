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
 * frontmatter (skills' SKILL.md, commands) is linted, and the JSON files
 * Claude Code reads hooks from: settings, plugin hook files and manifests.
 */
export function looksLikeProfile(filePath: string, text: string): boolean {
  if (HOOK_JSON.test(filePath)) return true;
  if (/\.json$/i.test(filePath)) return false;
  return /[\\/]\.claude[\\/]agents[\\/]/.test(filePath) || /^\uFEFF?---[ \t]*\r?\n/.test(text);
}

const HOOK_JSON = /(?:^|[\\/])(?:\.claude[\\/]settings(?:\.local)?\.json|hooks[\\/]hooks\.json|\.claude-plugin[\\/]plugin\.json)$/;
