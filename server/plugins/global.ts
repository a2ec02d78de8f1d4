// Marks a plugin as not encapsulated, so its hooks apply to the whole app (what fastify-plugin does; that
// package is only a transitive dependency here, and this is all of it that we need).
import type { FastifyPluginAsync } from 'fastify'

export function global<T extends FastifyPluginAsync<any>>(plugin: T): T {
  ;(plugin as any)[Symbol.for('skip-override')] = true
  return plugin
}
