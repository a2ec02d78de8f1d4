// Activity points (issue 26, contract/points.ts): the student's own record and transcript, the organiser's view of
// an event's points and its winners, and the admin's settings, students, below-target list and export. Every role
// check and every read of the record is in the points repository (server/db/points/points.ts).
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { branchFromWire } from '../../contract/profile-options.ts'
import type { Config } from '../config.ts'
import { finalYearOn, type ExportRow } from '../db/points/points.ts'
import { loadLogo } from '../feeds/certificate-pdf.ts'
import { transcriptPdf } from '../feeds/transcript-pdf.ts'
import { declared } from './declare.ts'
import { CHAPTER, verifyBase } from './feeds.ts'
import { csvLine } from './csv.ts'
import { refusal, valueOf } from './outcomes.ts'

const KOLKATA = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

/** An instant as Asia/Kolkata's wall time with its offset (India has no daylight saving): 2026-11-27T02:30:00+05:30. */
export function kolkataDateTime(iso: string | null): string {
  if (!iso) return ''
  const parts = Object.fromEntries(KOLKATA.formatToParts(new Date(iso)).map((p) => [p.type, p.value]))
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}+05:30`
}

export const EXPORT_COLUMNS = ['Student ID', 'Name', 'E-mail', 'Graduation year', 'Branch', 'Lateral entry']
export const EXPORT_TAIL = ['Total', 'Target', 'Below target', 'Last earned at']

export function exportRow(r: ExportRow, categories: string[]): string {
  return csvLine([
    r.roll_number,
    r.name,
    r.email,
    r.year,
    r.branch === null ? '' : branchFromWire(r.branch),
    r.lateral_entry ? 'yes' : 'no',
    ...categories.map((c) => r.by_category.get(c) ?? 0),
    r.total,
    r.target,
    r.total < r.target ? 'yes' : 'no',
    kolkataDateTime(r.last_earned_at),
  ])
}

/** Students per page of the export: one query of users and one of their entries each. */
const EXPORT_PAGE = 1000

const pointsRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const points = app.pointsRepository
  const writes = { rateLimit: app.rateLimits.writes }
  const logo = await loadLogo(config.staticDir)

  app.route({
    ...declared(CALLS.myPoints),
    handler: async (request) => ({ error: false as const, record: await points.record(request.userId) }),
  })

  app.route({
    ...declared(CALLS.pointsTranscript),
    // A PDF costs a few milliseconds of CPU per page: counted with the student's writes, as the certificate.
    config: writes,
    handler: async (request, reply) => {
      const transcript = valueOf(await points.transcript(request.userId))
      const pdf = await transcriptPdf(transcript, { verifyBase: verifyBase(config), chapter: CHAPTER, logo })
      return (reply as FastifyReply)
        .type('application/pdf')
        .header('content-disposition', 'attachment; filename="activity-points.pdf"')
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf))
    },
  })

  app.route({
    ...declared(CALLS.orgEventPoints),
    handler: async (request) => ({ error: false as const, ...valueOf(await points.eventPoints(request.userId, request.body.event_id)) }),
  })

  app.route({
    ...declared(CALLS.orgEventWinners),
    config: writes,
    handler: async (request) => {
      const { event_id, user_id, title, remove } = request.body
      const change = user_id === undefined ? undefined : { userId: user_id, title, remove: remove ?? false }
      return { error: false as const, winners: valueOf(await points.winners(request.userId, event_id, change)) }
    },
  })

  app.route({
    ...declared(CALLS.pointsSettingsGet),
    handler: async (request) => ({ error: false as const, settings: valueOf(await points.settings(request.userId)) }),
  })

  app.route({
    ...declared(CALLS.pointsSettingsSave),
    config: writes,
    handler: async (request) => ({ error: false as const, settings: valueOf(await points.saveSettings(request.userId, request.body)) }),
  })

  app.route({
    ...declared(CALLS.pointsStudent),
    config: writes,
    handler: async (request) => ({ error: false as const, ...valueOf(await points.student(request.userId, request.body.email, request.body.lateral_entry)) }),
  })

  app.route({
    ...declared(CALLS.pointsBelowTarget),
    handler: async (request) => {
      const year = request.body.year ?? finalYearOn(new Date())
      return { error: false as const, year, students: valueOf(await points.belowTarget(request.userId, year, request.body.branch ?? null)) }
    },
  })

  app.route({
    ...declared(CALLS.pointsExportCsv),
    config: writes,
    handler: async (request, reply) => {
      if (!(await points.isAdmin(request.userId))) throw refusal('adminOnly')
      const filter = { year: request.query.year, branch: request.query.branch ?? null }
      const categories = await points.exportCategories()
      // Streamed a page of students at a time: 20,000 rows never sit in memory whole. The header goes with the first
      // page, so that a first page that fails is an ordinary error answer, before anything of the file is sent.
      async function* lines() {
        let head = `\uFEFF${csvLine([...EXPORT_COLUMNS, ...categories, ...EXPORT_TAIL])}`
        for (let after = 0; ; ) {
          const page = await points.exportPage(filter, after, EXPORT_PAGE)
          if (page.length === 0) {
            if (head) yield head
            return
          }
          yield head + page.map((r) => exportRow(r, categories)).join('')
          head = ''
          after = page[page.length - 1]!.id
        }
      }
      const name = ['activity-points', filter.year, filter.branch].filter(Boolean).join('-')
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name.replace(/[^A-Za-z0-9_-]/g, '_')}.csv"`)
        .header('cache-control', 'no-store')
      return reply.sendStreamed(lines())
    },
  })
}

export default pointsRoutes
