/** Hooks in perl that talk RESP to the sandbox's sockets, and a sampler of what the host holds meanwhile. */

/** Perl helpers for the hook: RESP frames to a socket, and reading replies back. */
export const PERL_RESP = String.raw`
use strict; use warnings; use IO::Socket::UNIX; $| = 1;
sub connect_to { IO::Socket::UNIX->new(Peer => $_[0]) or die "connect $_[0]: $!" }
sub frame { my $o = "*" . scalar(@_) . "\r\n"; $o .= "\$" . length($_) . "\r\n$_\r\n" for @_; $o }
sub reply {
  my ($s) = @_; my $line = <$s>; return undef unless defined $line;
  if ($line =~ /^\$(-?\d+)/) { return "(nil)" if $1 < 0; my $n = $1 + 2; my $data = ''; while (length($data) < $n) { my $got = read($s, $data, $n - length($data), length($data)); last unless $got } return substr($data, 0, $1) }
  $line =~ s/\r\n$//; return $line;
}
`;

export function perl(body: string): string {
  return `perl - <<'PERL'\n${PERL_RESP}\n${body}\nPERL\necho "perl=$?"`;
}

/** Samples the host's off-heap buffers (where socket data lives) while a run goes on. */
export function sampleHost(): { peakGrowth: () => number; stop: () => void } {
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }, 5);
  return { peakGrowth: () => peak - base, stop: () => clearInterval(timer) };
}
