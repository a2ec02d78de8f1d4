// Placeholder: filled in by the issue that owns these calls.
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../deps.ts'

export default async function authRoutes(_app: FastifyInstance, _opts: { deps: Deps }) {}
