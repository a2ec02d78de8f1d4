// The organiser console's calls (contract/org.ts, API.md Part 2 "Organiser calls"). Every role check and every
// write lives in the org repository (server/db/org/org.ts); refusals go through the one table (outcomes.ts).
// Calls not built yet answer 404 'This call is not available yet.', exactly as an unregistered path did, so that
// the OpenAPI document and the contract stay in step while the calls land one by one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { ORG_CALLS } from '../../contract/org.ts'
import type { ParticipantRow, Question } from '../../contract/types.ts'
import multipart from '@fastify/multipart'
import { UPLOAD_MAX_BYTES } from '../../contract/org.ts'
import { branchFromWire } from '../../contract/profile-options.ts'
import { badRequest, HttpError, notFound } from '../errors.ts'
import { encode, MAX_PIXELS, newUploadName, pixelsOf, removeImage, sniff, store, storedBytes } from '../uploads/images.ts'
import { csvCell, csvLine } from './csv.ts'
import { declared } from './declare.ts'
import { refusal, valueOf } from './outcomes.ts'

export const UPLOAD_MESSAGES = {
  notMultipart: 'Upload one image as multipart/form-data (JPEG, PNG or WebP, at most 5 MB).',
  noFile: 'Choose an image to upload.',
  tooLarge: 'The image is larger than 5 MB: choose a smaller one.',
  tooManyPixels: 'The image is larger than 25 megapixels (6000 × 4000 is the most): choose a smaller one.',
  notImage: 'Only JPEG, PNG or WebP images can be uploaded.',
  unreadable: 'The image could not be read: choose another JPEG, PNG or WebP file.',
  quota: (mb: number) =>
    `Your images take ${mb} MB, the most one organiser may keep. Images no event uses are removed a day after their upload: try again then.`,
} as const

/** UPLOAD_QUOTA_MB's default: about 400 event images (a details image and its card take 100 to 300 KB). */
export const UPLOAD_QUOTA_MB = 100

const IST_OFFSET_MS = 5.5 * 3_600_000

/**
 * A moment as the college reads it (issue 22 item 5): Asia/Kolkata with its offset, `2026-11-27T02:30:56+05:30`,
 * so a registration at 02:30 on the 27th is not filed under the 26th (UTC's day); empty for none.
 */
export function csvTime(iso: string | null): string {
  const ms = iso ? Date.parse(iso) : Number.NaN
  return Number.isNaN(ms) ? '' : `${new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19)}+05:30`
}

/**
 * A ticket code kept as text by a spreadsheet: Excel reads 16 digits as a number and keeps 15 of them
 * (1234567890123456 becomes 1.23457E+15, its last digit lost), so the cell is the constant formula
 * `="1234567890123456"`, which it shows as the code itself. Only for a code of digits, which the server makes;
 * anything else goes through csvCell's guard.
 */
export function csvTicketCode(code: string | null): string {
  if (!code) return ''
  return /^\d{1,40}$/.test(code) ? `"=""${code}"""` : csvCell(code)
}

/** One participant's line: times in IST, the branch as the screens show it, the ticket code kept as text. */
function csvRow(p: ParticipantRow, questions: Question[]): string {
  const before = [
    p.user.name,
    p.user.email,
    p.user.roll_number,
    p.user.phone_number,
    p.user.branch ? branchFromWire(p.user.branch) : '',
    p.user.year,
    p.team?.name ?? '',
    csvTime(p.registered_at),
    p.ticket_collected ? 'yes' : 'no',
  ]
  const after = [csvTime(p.checked_in_at), p.rating, p.waitlist_position, ...questions.map((q) => p.answers[q.id] ?? '')]
  return `${[...before.map(csvCell), csvTicketCode(p.ticket_code), ...after.map(csvCell)].join(',')}\r\n`
}

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

const orgRoutes: FastifyPluginAsyncZod<{ uploadsDir?: string; uploadQuotaMb?: number }> = async (app, options) => {
  const org = app.orgRepository
  const uploadsDir = options.uploadsDir ?? 'data/uploads'
  const quotaMb = options.uploadQuotaMb ?? UPLOAD_QUOTA_MB
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
      if (id === null) throw refusal('eventNotFound')
      const event = valueOf(await org.access(request.userId, id))
      const questions = event.questions as Question[]
      // Streamed a page at a time: a list of thousands never sits in memory whole. The header goes with the first
      // page, so that a first page that fails is an ordinary error answer, before anything of the file is sent.
      async function* lines() {
        let head = `\uFEFF${csvLine([...CSV_COLUMNS, ...questions.map((q) => q.label)])}`
        for (let after = 0; ; ) {
          const page = await org.participantsPage(event.id, after, 500)
          if (page.length === 0) {
            if (head) yield head
            return
          }
          yield head + page.map((p) => csvRow(p, questions)).join('')
          head = ''
          after = page[page.length - 1]!.participantId
        }
      }
      const filename = `participants-${event.id}.csv`
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
      // A stream is sent as it is (no serialiser); the declared answer is the CSV text it makes.
      return reply.sendStreamed(lines())
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

  // The upload reads multipart/form-data, in a scope of its own: no other call takes it (they answer 415).
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6 } })
    scope.route({
      ...declared(CALLS.orgUpload),
      config: writes,
      bodyLimit: UPLOAD_MAX_BYTES + 64 * 1024,
      handler: async (request) => {
        if (!(await org.hasOrganiserRole(request.userId))) throw refusal('notOrganiser')
        if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.notMultipart)
        let buffer: Buffer
        try {
          const file = await request.file()
          if (!file) throw badRequest(UPLOAD_MESSAGES.noFile)
          buffer = await file.toBuffer()
        } catch (err) {
          if (err instanceof HttpError) throw err
          // Over 5 MB: 413, as the conventions say for a body too large (it was 415: issue 21 item 9, issue 22 item 6).
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'IMAGE_TOO_LARGE', UPLOAD_MESSAGES.tooLarge)
          throw new HttpError(415, 'IMAGE_UNREADABLE', UPLOAD_MESSAGES.unreadable)
        }
        if (buffer.length > UPLOAD_MAX_BYTES) throw new HttpError(413, 'IMAGE_TOO_LARGE', UPLOAD_MESSAGES.tooLarge)
        if (!sniff(buffer)) throw new HttpError(415, 'IMAGE_TYPE_NOT_ALLOWED', UPLOAD_MESSAGES.notImage)
        // The pixels from the header, before anything is decoded: the decode's CPU follows them (issue 21 item 9).
        const pixels = await pixelsOf(buffer)
        if (pixels === null) throw new HttpError(415, 'IMAGE_UNREADABLE', UPLOAD_MESSAGES.unreadable)
        if (pixels > MAX_PIXELS) throw new HttpError(413, 'IMAGE_TOO_LARGE', UPLOAD_MESSAGES.tooManyPixels)
        let encoded: Awaited<ReturnType<typeof encode>>
        try {
          encoded = await encode(buffer)
        } catch {
          throw new HttpError(415, 'IMAGE_UNREADABLE', UPLOAD_MESSAGES.unreadable)
        }
        // Counted against the organiser's quota before the files are written: a refused image leaves nothing.
        const name = newUploadName()
        const recorded = await app.uploadsRepository.record(request.userId, name, storedBytes(encoded), quotaMb * 1024 * 1024)
        if (!recorded.ok) throw refusal('uploadQuota', UPLOAD_MESSAGES.quota(quotaMb))
        try {
          await store(uploadsDir, encoded, name)
        } catch (err) {
          await removeImage(uploadsDir, name).catch(() => {})
          await app.uploadsRepository.forget([name])
          throw err
        }
        const url = `/uploads/${name}.webp`
        await app.auditRepository.record({
          actorId: request.userId,
          actorKind: 'user',
          action: 'image.upload',
          after: { url, width: encoded.width, height: encoded.height },
        })
        return { error: false as const, url }
      },
    })
  })
  mark('orgUpload')

  for (const name of Object.keys(ORG_CALLS) as (keyof typeof ORG_CALLS)[]) {
    if (built.has(name)) continue
    app.route({
      ...declared(CALLS[name]),
      handler: async () => {
        throw notFound('NOT_FOUND', 'This call is not available yet.')
      },
    })
  }
}

export default orgRoutes
