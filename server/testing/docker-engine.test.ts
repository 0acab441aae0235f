import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { type BridgeNetwork, hostAddressOnBridge } from './docker-engine';

const ipv4 = (address: string): os.NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.0.0',
  family: 'IPv4',
  mac: '02:42:00:00:00:00',
  internal: false,
  cidr: `${address}/16`,
});
const ipv6 = (address: string): os.NetworkInterfaceInfo => ({
  address,
  netmask: 'ffff:ffff:ffff:ffff::',
  family: 'IPv6',
  mac: '02:42:00:00:00:00',
  internal: false,
  cidr: `${address}/64`,
  scopeid: 0,
});

describe("the host's address on the Docker bridge", () => {
  it('is the IPAM gateway when the engine reports one', () => {
    const bridge: BridgeNetwork = { IPAM: { Config: [{ Subnet: '172.17.0.0/16', Gateway: '172.17.0.1' }] } };
    expect(hostAddressOnBridge(bridge, { docker0: [ipv4('172.17.0.9')] })).toBe('172.17.0.1');
  });

  it("passes over an IPv6 config's gateway for the IPv4 one", () => {
    const bridge: BridgeNetwork = {
      IPAM: {
        Config: [
          { Subnet: 'fd00::/64', Gateway: 'fd00::1' },
          { Subnet: '10.9.0.0/24', Gateway: '10.9.0.254' },
        ],
      },
    };
    expect(hostAddressOnBridge(bridge, {})).toBe('10.9.0.254');
  });

  it("without a gateway, is the IPv4 address of the bridge's interface, named by the network or docker0", () => {
    const onlySubnet: BridgeNetwork = { IPAM: { Config: [{ Subnet: '172.17.0.0/16' }] } };
    expect(hostAddressOnBridge(onlySubnet, { eth0: [ipv4('10.0.0.5')], docker0: [ipv6('fe80::1'), ipv4('172.17.0.1')] })).toBe(
      '172.17.0.1',
    );
    const named: BridgeNetwork = { ...onlySubnet, Options: { 'com.docker.network.bridge.name': 'br-custom' } };
    expect(hostAddressOnBridge(named, { docker0: [ipv4('172.17.0.1')], 'br-custom': [ipv4('192.168.50.1')] })).toBe('192.168.50.1');
  });

  it('without a gateway or an interface, is the first host of the subnet', () => {
    expect(hostAddressOnBridge({ IPAM: { Config: [{ Subnet: '172.18.0.0/16' }] } }, {})).toBe('172.18.0.1');
    expect(hostAddressOnBridge({ IPAM: { Config: [{ Subnet: '10.20.30.64/26' }] }, Options: null }, { docker0: [ipv6('fe80::1')] })).toBe(
      '10.20.30.65',
    );
  });

  it('says so when the engine reports nothing to go by', () => {
    expect(() => hostAddressOnBridge({ IPAM: { Config: null } }, {})).toThrow(
      /no IPv4 gateway or subnet, and the host no interface docker0/,
    );
  });
});
