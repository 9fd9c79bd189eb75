import { canonicalAddress, classifyAddress, parseIpv4Loose } from './address-classifier';
import { OutboundGuard, OutboundRefusedError } from './outbound-guard';

describe('classifyAddress', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0177.1', 'loopback'],
    ['127.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::FFFF:127.0.0.1]', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['012.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['0xc0a80101', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0xa9fea9fe', 'link-local'],
    ['2852039166', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2002:7f00:1::', 'reserved'],
    ['not-an-address', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '0x08080808', '134744072', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('parseIpv4Loose and canonicalAddress', () => {
  test('read every inet_aton spelling and nothing else', () => {
    expect(parseIpv4Loose('0x7f.0.0.1')).toBe('127.0.0.1');
    expect(parseIpv4Loose('127.0.1')).toBe('127.0.0.1');
    expect(parseIpv4Loose('4294967295')).toBe('255.255.255.255');
    expect(parseIpv4Loose('4294967296')).toBeUndefined();
    expect(parseIpv4Loose('256.0.0.1')).toBeUndefined();
    expect(parseIpv4Loose('08.0.0.1')).toBeUndefined();
    expect(parseIpv4Loose('1.2.3.4.5')).toBeUndefined();
    expect(parseIpv4Loose('example.com')).toBeUndefined();
    expect(parseIpv4Loose('1..2')).toBeUndefined();
    expect(canonicalAddress('[0:0::FFFF:7F00:1]')).toBe('::ffff:7f00:1');
    expect(canonicalAddress('localhost')).toBeUndefined();
  });
});

describe('OutboundGuard', () => {
  const resolve = async (host: string) => {
    const table: Record<string, { address: string; family: number }[]> = {
      localhost: [{ address: '127.0.0.1', family: 4 }],
      'mixed.example': [
        { address: '93.184.216.34', family: 4 },
        { address: '::1', family: 6 },
      ],
      'public.example': [{ address: '93.184.216.34', family: 4 }],
      'db.internal': [{ address: '10.0.0.5', family: 4 }],
    };
    if (!table[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return table[host];
  };

  test('hosted: refuses names resolving to an internal address, even one address among several', async () => {
    const guard = new OutboundGuard({ enforce: true, allowedHosts: [], resolve });
    await expect(guard.check('localhost')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(guard.check('mixed.example')).rejects.toThrow(/::1, a loopback address/);
    await expect(guard.check('0x7f.1')).rejects.toThrow(/127\.0\.0\.1/);
    await expect(guard.check('[::ffff:127.0.0.1]')).rejects.toThrow(/loopback/);
    await expect(guard.check('nowhere.example')).rejects.toThrow(/does not resolve/);
    await expect(guard.check('public.example')).resolves.toMatchObject({ host: 'public.example', address: '93.184.216.34', family: 4 });
  });

  test('the operator allows a host by name, by address in any spelling, or by range', async () => {
    const guard = new OutboundGuard({ enforce: true, allowedHosts: ['db.internal', '127.0.0.1', '192.168.0.0/16'], resolve });
    await expect(guard.check('db.internal')).resolves.toMatchObject({ address: '10.0.0.5' });
    await expect(guard.check('2130706433')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(guard.check('localhost')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(guard.check('192.168.7.7')).resolves.toMatchObject({ address: '192.168.7.7' });
    await expect(guard.check('10.0.0.5')).rejects.toThrow(/private/);
    await expect(guard.check('::1')).rejects.toThrow(/loopback/);
  });

  test('self-hosted: nothing is refused, the address is still pinned', async () => {
    const guard = new OutboundGuard({ enforce: false, allowedHosts: [], resolve });
    await expect(guard.check('localhost')).resolves.toMatchObject({ host: 'localhost', address: '127.0.0.1', family: 4 });
  });
});
