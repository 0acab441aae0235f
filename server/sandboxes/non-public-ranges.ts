/**
 * The IPv4 ranges no sandbox may reach, on any runtime: private (the LAN, Docker's networks),
 * shared (carrier NAT), link-local (cloud metadata at 169.254.169.254), loopback, the
 * documentation and benchmarking ranges (never on the internet, so someone's own network when
 * they answer), multicast and reserved. What is left is the internet; each runtime adds the one
 * way to the host it gives its sandboxes.
 */
export const NON_PUBLIC_IPV4_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
] as const;
