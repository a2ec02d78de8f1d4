// The database and its repositories, registered once each (fastify/demo's tasks-repository): factories over the
// database handle from server/db/, which know nothing of HTTP, decorated onto the app for the routes.
import fp from 'fastify-plugin'
import type { Database, Db } from '../db/index.ts'
import { eventsRepository, type EventsRepository } from '../db/events/events.ts'
import { claimsRepository, type ClaimsRepository } from '../db/tickets/claims.ts'
import { teamsRepository, type TeamsRepository } from '../db/teams/teams.ts'
import { usersRepository, type UsersRepository } from '../db/people/users.ts'
import { sessionsRepository, type SessionsRepository } from '../db/people/sessions.ts'
import { councilsRepository, type CouncilsRepository } from '../db/events/councils.ts'
import { rolesRepository, type RolesRepository } from '../db/people/roles.ts'
import { auditRepository, type AuditRepository } from '../db/audit.ts'
import { orgRepository, type OrgRepository } from '../db/org/org.ts'
import { createLifecycle, type Lifecycle } from '../db/events/lifecycle.ts'
import { doorRepository, type DoorRepository } from '../db/door/door.ts'
import { JOIN_ATTEMPTS, TRANSFER_MISSES, databaseAttemptLimiter, type AttemptLimiter } from '../db/people/attempts.ts'
import { redisAttemptLimiter } from '../teams/redis-attempt-limiter.ts'
import { randomInviteCode } from '../teams/invite-codes.ts'
import { feedsRepository, type FeedsRepository } from '../db/events/feeds.ts'
import { uploadsRepository, type UploadsRepository } from '../db/events/uploads.ts'
import { randomCertificateCode } from '../feeds/secrets.ts'
import { pointsRepository, type PointsRepository } from '../db/points/points.ts'
import { inboxRepository, type InboxRepository } from '../db/people/inbox.ts'
import { fairDraws } from './scheduler.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    eventsRepository: EventsRepository
    claimsRepository: ClaimsRepository
    teamsRepository: TeamsRepository
    usersRepository: UsersRepository
    sessionsRepository: SessionsRepository
    councilsRepository: CouncilsRepository
    rolesRepository: RolesRepository
    auditRepository: AuditRepository
    /** Event state changes (manual and scheduled), for listeners: see server/db/events/lifecycle.ts. */
    lifecycle: Lifecycle
    orgRepository: OrgRepository
    doorRepository: DoorRepository
    /** Wrong invite codes per student: in Redis when instances share one, else in the database. */
    joinAttempts: AttemptLimiter
    /** Transfers to someone who cannot receive the ticket, per student (issue 36 item 5). */
    transferMisses: AttemptLimiter
    feedsRepository: FeedsRepository
    uploadsRepository: UploadsRepository
    pointsRepository: PointsRepository
    /** The students' inboxes (issue 37 item 2). */
    inboxRepository: InboxRepository
  }
}

export const database = fp(async (app, { database }: { database: Database }) => void app.decorate('db', database.db), { name: 'database' })

const DB = ['database']

/** What the repositories take of the configuration. */
export interface RepositoryOptions {
  reuseGraceSeconds?: number
  /** Whether Razorpay is configured (its keys set): then it is offered on paid events. */
  razorpay?: boolean
}

export const repositories = [
  fp(async (app, options: RepositoryOptions) => void app.decorate('eventsRepository', eventsRepository(app.db, { razorpay: options.razorpay })), {
    name: 'events-repository',
    dependencies: DB,
  }),
  // A claim after a fair opening's draw_at runs the draw first (server/db/tickets/claims.ts): the draws come before it.
  fairDraws,
  fp(async (app) => void app.decorate('claimsRepository', claimsRepository(app.db, app.fairDraws.drawNow)), {
    name: 'claims-repository',
    dependencies: [...DB, 'fair-draws'],
  }),
  fp(async (app) => void app.decorate('teamsRepository', teamsRepository(app.db, randomInviteCode)), { name: 'teams-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('usersRepository', usersRepository(app.db)), { name: 'users-repository', dependencies: DB }),
  fp(
    async (app, { reuseGraceSeconds }: RepositoryOptions) =>
      void app.decorate('sessionsRepository', sessionsRepository({ db: app.db, tokens: app.tokens, reuseGraceSeconds })),
    {
      name: 'sessions-repository',
      dependencies: [...DB, 'auth'],
    },
  ),
  fp(async (app) => void app.decorate('councilsRepository', councilsRepository(app.db)), { name: 'councils-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('rolesRepository', rolesRepository(app.db)), { name: 'roles-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('auditRepository', auditRepository(app.db)), { name: 'audit-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('doorRepository', doorRepository(app.db)), { name: 'door-repository', dependencies: DB }),
  fp(
    async (app) =>
      void app.decorate(
        'lifecycle',
        createLifecycle((err) => app.log.error({ err }, 'a state-change listener failed')),
      ),
    { name: 'lifecycle' },
  ),
  fp(async (app, options: RepositoryOptions) => void app.decorate('orgRepository', orgRepository(app.db, app.lifecycle, { razorpay: options.razorpay })), {
    name: 'org-repository',
    dependencies: [...DB, 'lifecycle'],
  }),
  fp(
    async (app) =>
      void app.decorate(
        'joinAttempts',
        app.redis ? redisAttemptLimiter(app.redis, JOIN_ATTEMPTS, `${app.redisPrefix}attempts:`) : databaseAttemptLimiter(app.db, JOIN_ATTEMPTS),
      ),
    { name: 'join-attempts', dependencies: [...DB, 'redis'] },
  ),
  fp(
    async (app) =>
      void app.decorate(
        'transferMisses',
        app.redis ? redisAttemptLimiter(app.redis, TRANSFER_MISSES, `${app.redisPrefix}attempts:`) : databaseAttemptLimiter(app.db, TRANSFER_MISSES),
      ),
    { name: 'transfer-misses', dependencies: [...DB, 'redis'] },
  ),
  fp(async (app) => void app.decorate('feedsRepository', feedsRepository(app.db, randomCertificateCode)), { name: 'feeds-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('uploadsRepository', uploadsRepository(app.db)), { name: 'uploads-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('pointsRepository', pointsRepository(app.db, randomCertificateCode)), { name: 'points-repository', dependencies: DB }),
  fp(async (app) => void app.decorate('inboxRepository', inboxRepository(app.db)), { name: 'inbox-repository', dependencies: DB }),
]
