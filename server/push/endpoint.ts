// Push endpoints are addresses a student hands the server, which then POSTs to them: without a guard, a student
// could make the server send requests into its own network (a database port, a cloud metadata address: SSRF).
// With PUSH_ENDPOINTS=public (the default in production) an endpoint must be an https URL of a host on the
// internet, checked twice:
// - when it is stored (POST /push/p/subscribe): an http URL, a name of this machine (localhost, *.localhost) or a
//   literal address that is not public unicast is refused with 400;
// - when a notification is sent to it: every address its name resolves to must be public, checked in the lookup
//   of the connection itself, so a name that resolves inside (or is re-pointed there later) is never connected to.
// Development and tests (PUSH_ENDPOINTS=any, the default outside production) accept any http(s) URL: their push
// services run on this machine. Address ranges come from ipaddr.js (Fastify's own proxy-addr uses it).
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

export type PushEndpoints = 'public' | 'any'

/** The 400's message for an endpoint that may not be stored. */
export const PRIVATE_ENDPOINT_MESSAGE = 'endpoint must be the https address of a push service on the internet'

/**
 * Whether an IP address is public unicast: not loopback, private, link-local, unique-local, CGNAT, reserved, … and
 * not in ::/96, the deprecated IPv4-compatible IPv6 addresses (RFC 4291 2.5.5.1), which ipaddr.js calls unicast:
 * `[::127.0.0.1]`, which the URL parser writes `[::7f00:1]`, reached this machine (issue 21 item 5).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false
  return ipaddr.process(address).range() === 'unicast'
}

/** A URL's host without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

/** Whether this endpoint may be stored under `mode` (the hostname's addresses are checked again at send time). */
export function endpointAllowed(endpoint: string, mode: PushEndpoints): boolean {
  if (mode === 'any') return true
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return false
  }
  if (url.protocol !== 'https:') return false
  const host = hostOf(url).toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return false
  return isIP(host) === 0 || isPublicAddress(host)
}

/** A connection refused because the endpoint's host is, or resolves to, an address that is not public. */
export class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`push endpoint host ${host} is not a public address`)
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for http(s).request that resolves as usual and refuses the connection when any address of the name is
 * not public (all of them: a name answering one public and one inner address must not be tried on the inner one).
 * Answers in the form asked for (`all` or a single address), as Node's happy-eyeballs connect asks for both.
 */
export function publicOnlyLookup(hostname: string, options: LookupAllOptions | { all?: false }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, [])
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) return callback(new PrivateAddressError(hostname), [])
    if (options.all) return callback(null, addresses)
    callback(null, addresses[0].address, addresses[0].family)
  })
}

/** Checked before connecting: a literal address skips the lookup, so it is judged here. */
export function assertPublicHost(url: URL): void {
  const host = hostOf(url)
  if (isIP(host) !== 0 && !isPublicAddress(host)) throw new PrivateAddressError(host)
}
