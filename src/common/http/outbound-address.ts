import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Address ranges an outbound fetch must not reach unless private networks are allowed: loopback,
 * private, shared (CGNAT), link-local (cloud metadata lives at 169.254.169.254), unique-local,
 * multicast, unspecified, reserved and documentation ranges.
 */
const IPV4_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const IPV6_RANGES: ReadonlyArray<readonly [string, number]> = [
  // Unspecified, loopback and the deprecated IPv4-compatible block.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const blocked = new BlockList();
for (const [network, prefix] of IPV4_RANGES) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_RANGES) blocked.addSubnet(network, prefix, 'ipv6');

/**
 * True when `address` (an IP literal) is one an outbound fetch must not reach by default. IPv6
 * addresses that embed an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by the IPv4 address they carry. Anything that is not an IP literal is refused.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return blocked.check(bare, 'ipv4');
  if (!isIPv6(bare)) return true;
  const bytes = ipv6Bytes(bare);
  if (bytes === undefined) return true;
  const embedded = embeddedIpv4(bytes);
  if (embedded !== undefined) return blocked.check(embedded, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

function embeddedIpv4(bytes: readonly number[]): string | undefined {
  const startsWith = (prefix: readonly number[]): boolean => prefix.every((value, index) => bytes[index] === value);
  const dotted = (from: number): string => bytes.slice(from, from + 4).join('.');
  if (startsWith([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return dotted(12);
  if (startsWith([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return dotted(12);
  if (startsWith([0x20, 0x02])) return dotted(2);
  return undefined;
}

/** The 16 bytes of an IPv6 literal (already checked with `isIPv6`), including a trailing dotted quad. */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...left, ...Array<string>(Math.max(missing, 0)).fill('0'), ...right];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}
