// The organiser console's calls (contract/org.ts, API.md Part 2 "Organiser calls"). Every role check and every
// write lives in the org repository (server/db/org.ts); refusals go through the one table (outcomes.ts).
// Calls not built yet answer 404 'This call is not available yet.', exactly as an unregistered path did, so that
// the OpenAPI document and the contract stay in step while the calls land one by one.
import { Readable } from 'node:stream'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { ORG_CALLS } from '../../contract/org.ts'
import type { ParticipantRow, Question } from '../../contract/types.ts'
import { notFound } from '../errors.ts'
import { declared } from './declare.ts'
import { MESSAGES, valueOf } from './outcomes.ts'

/** One CSV cell: formula-injection safe (a leading = + - @ tab or CR gets a '), quoted when it must be. */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s
}

const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`

const CSV_COLUMNS = [
  'Name',
  'E-mail',
  'Student ID',
  'Mobile',
  'Branch',
  'Year',
  'Team',
  'Registered at',
  'Ticket collected',
  'Ticket code',
  'Checked in at',
  'Rating',
  'Waitlist position',
]

function csvRow(p: ParticipantRow, questions: Question[]): string {
  return csvLine([
    p.user.name,
    p.user.email,
    p.user.roll_number,
    p.user.phone_number,
    p.user.branch,
    p.user.year,
    p.team?.name ?? '',
    p.registered_at,
    p.ticket_collected ? 'yes' : 'no',
    p.ticket_code,
    p.checked_in_at,
    p.rating,
    p.waitlist_position,
    ...questions.map((q) => p.answers[q.id] ?? ''),
  ])
}

const orgRoutes: FastifyPluginAsyncZod = async (app) => {
  const org = app.orgRepository
  const writes = { rateLimit: app.rateLimits.writes }
  const built = new Set<string>()
  const mark = (name: keyof typeof ORG_CALLS) => built.add(name)

  app.route({
    ...declared(CALLS.orgEvents),
    handler: async (request) => ({ error: false as const, events: valueOf(await org.events(request.userId)) }),
  })
  mark('orgEvents')

  app.route({
    ...declared(CALLS.orgEventSave),
    config: writes,
    handler: async (request) => ({ error: false as const, event: valueOf(await org.save(request.userId, request.body)) }),
  })
  mark('orgEventSave')

  app.route({
    ...declared(CALLS.orgEventState),
    config: writes,
    handler: async (request) => ({ error: false as const, event: valueOf(await org.setState(request.userId, request.body.event_id, request.body.state)) }),
  })
  mark('orgEventState')

  app.route({
    ...declared(CALLS.orgParticipants),
    handler: async (request) => {
      const event = valueOf(await org.access(request.userId, request.body.event_id))
      const participants: ParticipantRow[] = []
      for (let after = 0; ; ) {
        const page = await org.participantsPage(event.id, after)
        for (const { participantId: _p, ...row } of page) participants.push(row)
        if (page.length === 0) break
        after = page[page.length - 1]!.participantId
      }
      return { error: false as const, participants, questions: event.questions as Question[] }
    },
  })
  mark('orgParticipants')

  app.route({
    ...declared(CALLS.orgParticipantsCsv),
    handler: async (request, reply) => {
      const { id } = request.params
      if (id === null) throw notFound(MESSAGES.eventNotFound)
      const event = valueOf(await org.access(request.userId, id))
      const questions = event.questions as Question[]
      // Streamed a page at a time: a list of thousands never sits in memory whole.
      async function* lines() {
        yield `\uFEFF${csvLine([...CSV_COLUMNS, ...questions.map((q) => q.label)])}`
        for (let after = 0; ; ) {
          const page = await org.participantsPage(event.id, after, 500)
          if (page.length === 0) return
          yield page.map((p) => csvRow(p, questions)).join('')
          after = page[page.length - 1]!.participantId
        }
      }
      const filename = `participants-${event.id}.csv`
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'no-store')
          // A stream is sent as it is (no serialiser); the declared answer is the CSV text it makes.
          .send(Readable.from(lines()) as unknown as string)
      )
    },
  })
  mark('orgParticipantsCsv')

  app.route({
    ...declared(CALLS.orgEventStaff),
    config: writes,
    handler: async (request) => {
      const { event_id, email, remove } = request.body
      return { error: false as const, staff: valueOf(await org.staff(request.userId, event_id, email, remove ?? false)) }
    },
  })
  mark('orgEventStaff')

  app.route({
    ...declared(CALLS.orgCouncilOrganizers),
    config: writes,
    handler: async (request) => {
      const { council_id, email, remove } = request.body
      return { error: false as const, organizers: valueOf(await org.organizers(request.userId, council_id, email, remove ?? false)) }
    },
  })
  mark('orgCouncilOrganizers')

  app.route({
    ...declared(CALLS.orgCouncilSave),
    config: writes,
    handler: async (request) => ({ error: false as const, council: valueOf(await org.saveCouncil(request.userId, request.body)) }),
  })
  mark('orgCouncilSave')

  app.route({
    ...declared(CALLS.orgCouncils),
    handler: async (request) => ({ error: false as const, councils: valueOf(await org.councils(request.userId)) }),
  })
  mark('orgCouncils')

  app.route({
    ...declared(CALLS.orgAudit),
    handler: async (request) => ({
      error: false as const,
      entries: valueOf(await org.audit(request.userId, { eventId: request.body.event_id, before: request.body.before })),
    }),
  })
  mark('orgAudit')

  for (const name of Object.keys(ORG_CALLS) as (keyof typeof ORG_CALLS)[]) {
    if (built.has(name)) continue
    app.route({
      ...declared(CALLS[name]),
      handler: async () => {
        throw notFound('This call is not available yet.')
      },
    })
  }
}

export default orgRoutes
