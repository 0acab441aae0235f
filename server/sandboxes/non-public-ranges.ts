/**
 * The IPv4 ranges no sandbox may reach, on any runtime: private (the LAN, Docker's networks),
 * shared (carrier NAT), link-local (cloud metadata at 169.254.169.254), loopback, benchmarking,
 * multicast and reserved. What is left is the internet; each runtime adds the one way to the host
 * it gives its sandboxes. The documentation ranges (192.0.2.0/24 and its kin) are not here: some
 * networks give them to public services' stand-ins.
 */
export const NON_PUBLIC_IPV4_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/3',
] as const;
