// Where the server may connect on an administrator's word: the external systems' URLs (sales API,
// CASIS, SIMA) and the SMTP_URL setting are saved in the database, so they must not turn the
// server into a way into its own network. Loopback, private, link-local (cloud metadata), CGNAT,
// multicast and reserved addresses are refused when a URL is saved and when it is called: the name
// is resolved and every address checked, and the connection goes to a checked address (the
// lookup of the socket checks again, so a name that changes its answer between the check and the
// call gains nothing). EXTERNAL_HOSTS_ALLOW (host names, addresses or CIDR ranges, comma-separated)
// lets the operator name internal systems it trusts, e.g. `EXTERNAL_HOSTS_ALLOW=127.0.0.1`.
import { type LookupAddress, lookup } from 'node:dns';
import { lookup as lookupAsync } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const INTERNAL_V4 = [
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
] as const;
const INTERNAL_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

const internal = new BlockList();
for (const [net, bits] of INTERNAL_V4) internal.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of INTERNAL_V6) internal.addSubnet(net, bits, 'ipv6');

/** True for an address no administrator's URL may reach (v4-mapped v6 read as its v4). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return internal.check(mapped[1], 'ipv4');
  return internal.check(address, 'ipv6');
}

/** A name that does not resolve within this long is left to the connection (which checks again). */
const LOOKUP_TIMEOUT_MS = 5000;

// ---------- the operator's allow list ----------
let allowedNames = new Set<string>();
let allowedNets = new BlockList();

/** EXTERNAL_HOSTS_ALLOW, parsed: names, addresses and CIDR ranges. Throws a Spanish message. */
export function parseHostsAllow(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  const items = raw
    .split(',')
    .map((i) => i.trim().toLowerCase())
    .filter(Boolean);
  for (const item of items) {
    const [address, bits, extra] = item.split('/');
    const family = isIP(address ?? '');
    const okNet =
      family &&
      extra === undefined &&
      (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
    const okName = !item.includes('/') && /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(item);
    if (!okNet && !okName)
      throw new Error(
        `EXTERNAL_HOSTS_ALLOW inválido: "${item}" (se espera una lista de nombres de host, direcciones o rangos CIDR separados por comas, por ejemplo 127.0.0.1,10.0.0.0/8,sima.interno)`,
      );
  }
  return items;
}

/** Sets the allow list (buildApp, from the configuration). */
export function allowExternalHosts(items: string[]): void {
  const names = new Set<string>();
  const nets = new BlockList();
  for (const item of items) {
    const [address, bits] = item.split('/');
    const family = isIP(address ?? '');
    if (!family) names.add(item);
    else if (bits === undefined) nets.addAddress(address!, family === 4 ? 'ipv4' : 'ipv6');
    else nets.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  allowedNames = names;
  allowedNets = nets;
}

const isAllowedAddress = (address: string) =>
  allowedNets.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The host of a URL as the resolver takes it ([::1] → ::1). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Why a host may not be reached, or undefined when it may (resolves names). */
export async function internalHostReason(host: string): Promise<string | undefined> {
  const name = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (allowedNames.has(name)) return undefined;
  let addresses: string[];
  if (isIP(name)) addresses = [name];
  else {
    try {
      const found = await Promise.race([
        lookupAsync(name, { all: true, verbatim: true }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref(),
        ),
      ]);
      addresses = found.map((a) => a.address);
    } catch {
      // A name that does not resolve reaches nothing: the call fails as any unreachable system.
      return undefined;
    }
  }
  const bad = addresses.find((a) => isInternalAddress(a) && !isAllowedAddress(a));
  return bad === undefined ? undefined : bad === name ? name : `${name} (${bad})`;
}

/** The refusal text for a setting whose URL points inside. */
export const internalHostMessage = (key: string, where?: string) =>
  `${key} apunta a una dirección interna${where ? ` (${where})` : ''}: no se permiten direcciones locales, privadas ni de metadatos. Registre la dirección pública del sistema o pida al operador que la autorice en EXTERNAL_HOSTS_ALLOW.`;

/**
 * The socket's lookup for calls to the external systems: resolves as usual, then refuses an
 * internal address not allowed, so the connection itself goes only where the check allowed.
 */
export function checkedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  lookup(hostname, { ...options, all: true, verbatim: true } as never, (err, found) => {
    if (err) return callback(err, '');
    const list = found as unknown as LookupAddress[];
    const name = hostname.toLowerCase();
    const bad = allowedNames.has(name)
      ? undefined
      : list.find((a) => isInternalAddress(a.address) && !isAllowedAddress(a.address));
    if (bad) {
      const e: NodeJS.ErrnoException = new Error(`dirección interna ${bad.address} rechazada`);
      e.code = 'EINTERNALHOST';
      return callback(e, '');
    }
    if (options.all) return callback(null, list);
    const first = list[0];
    return first ? callback(null, first.address, first.family) : callback(new Error('sin dirección'), '');
  });
}
