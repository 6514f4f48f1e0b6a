import { describe, expect, it } from 'vitest';
import { containerCommand, containerRun, reparsedWords, sshCommandWords } from '../../src/shell/remote.js';
import type { PlainCommand, PlainWord } from '../../src/shell/commands.js';

/** A command of literal words, each placed after the one before. */
function command(text: string): PlainCommand {
  const words: PlainWord[] = [];
  let at = 0;
  for (const word of text.split(' ')) {
    words.push({ text: word, value: word, start: at, end: at + word.length });
    at += word.length + 1;
  }
  return { name: words[0]!, args: words.slice(1), start: 0, end: text.length, heredocs: [] };
}

const inner = (text: string): string | undefined => {
  const found = containerCommand(command(text));
  return found && [found.name, ...found.args].map((w) => w.value).join(' ');
};

describe('commands run elsewhere', () => {
  it('finds the command a container runs, past the runner’s, the subcommand’s options and the image', () => {
    expect(inner('docker exec -it -u root -e A=1 app sh -c x')).toBe('sh -c x');
    expect(inner('docker --context prod run --rm -v /a:/b --name=t -w /b node:20 npm test')).toBe('npm test');
    expect(inner('podman run alpine rm -rf /w')).toBe('rm -rf /w');
    expect(inner('kubectl -n prod exec -c web pod-1 -- bash -c y')).toBe('bash -c y');
    expect(containerCommand(command('docker exec app sh -c x'))?.wrappedBy).toBe('docker exec');
    expect(containerCommand(command('docker exec app sh -c x'))?.start).toBe(16);
  });

  it('finds nothing for other subcommands or a runner given no command', () => {
    expect(inner('docker ps -a')).toBeUndefined();
    expect(inner('docker build -t x .')).toBeUndefined();
    expect(inner('docker run alpine')).toBeUndefined();
    expect(inner('kubectl get pods')).toBeUndefined();
  });

  it('tells a run that bind-mounts a host path', () => {
    const mounts = (text: string): boolean | undefined => containerRun(command(text))?.mountsHost;
    expect(mounts('docker run -v /srv/data:/d alpine ls')).toBe(true);
    expect(mounts('docker run --volume ./src:/src alpine ls')).toBe(true);
    expect(mounts('docker run --volume=~/.ssh:/root/.ssh alpine ls')).toBe(true);
    expect(mounts('docker run --mount type=bind,src=.,dst=/w alpine ls')).toBe(true);
    expect(mounts('docker run -v data:/d alpine ls')).toBe(false);
    expect(mounts('docker run -v /anonymous alpine ls')).toBe(false);
    expect(mounts('docker run --mount type=volume,src=data,dst=/d alpine ls')).toBe(false);
    expect(mounts('docker exec app ls')).toBe(false);
  });

  it('takes the words ssh sends after its options and the destination', () => {
    expect(sshCommandWords(command('ssh -p 22 -o BatchMode=yes -A user@host ls -la')).map((w) => w.value)).toEqual(['ls', '-la']);
    expect(sshCommandWords(command('ssh -- host uptime')).map((w) => w.value)).toEqual(['uptime']);
    expect(sshCommandWords(command('ssh host'))).toEqual([]);
    expect(sshCommandWords(command('scp a host:b'))).toEqual([]);
  });

  it('names who parses the text again', () => {
    expect(reparsedWords(command('bash -c x'))).toMatchObject({ shell: 'bash', words: [{ value: 'x' }] });
    expect(reparsedWords(command('docker exec app sh -c y'))).toMatchObject({ shell: 'sh', words: [{ value: 'y' }] });
    expect(reparsedWords(command('ssh host a b'))).toMatchObject({ shell: 'ssh', words: [{ value: 'a' }, { value: 'b' }] });
    expect(reparsedWords(command('docker exec app ls'))).toBeUndefined();
  });
});
