// The client address the per-address limits count under (issue 10). Fastify finds it from X-Forwarded-For only
// for the proxies TRUST_PROXY names (server/config.ts); whatever a header hands over is still checked here, so a
// crafted value can neither pick an arbitrary key nor make one thousands of characters long (it is a Redis key).
import { isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'

/** The longest textual IP address (an IPv6 address with an embedded IPv4 one) is 45 characters. */
export const MAX_ADDRESS_LENGTH = 45

export function clientAddress(request: Pick<FastifyRequest, 'ip' | 'socket'>): string {
  const ip = request.ip
  if (typeof ip === 'string' && ip.length <= MAX_ADDRESS_LENGTH && isIP(ip) !== 0) return ip
  // Not an address (a proxy passed on garbage): count it under the connection's own address instead.
  const socket = request.socket?.remoteAddress
  return socket && socket.length <= MAX_ADDRESS_LENGTH ? socket : 'unknown'
}
