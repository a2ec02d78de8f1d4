// /verify/{code} for a code of an activity points transcript's entry (issue 26): the certificates' public page
// (routes/feeds.ts) answers it as one more kind. The entry is computed again now, so the page says whether it
// still stands: a check-in undone, a winner unmarked or a role removed after the transcript was printed shows
// as withdrawn, with no points.
import type { FastifyReply } from 'fastify'
import type { VerifiedPoints } from '../db/points/points.ts'
import { certificateDate } from '../feeds/certificate-pdf.ts'
import { printedCode } from '../feeds/secrets.ts'
import { KIND_LABELS } from '../feeds/transcript-pdf.ts'
import { escapeHtml, rows, verifyDocument } from './verify-document.ts'

export function verifiedPointsAnswer(accept: string, reply: FastifyReply, p: VerifiedPoints, chapter: string, home: string) {
  reply.header('x-robots-tag', 'noindex').header('cache-control', 'public, max-age=300')
  if (/\bapplication\/json\b/.test(accept))
    return reply.type('application/json; charset=utf-8').send({
      error: false as const,
      kind: 'ACTIVITY_POINTS' as const,
      activity_points: {
        code: printedCode(p.code),
        name: p.name,
        event: p.event,
        council: p.council,
        date: p.dates[0] ?? null,
        category: p.category,
        role: p.role,
        points: p.points,
        stands: p.stands,
      },
    })
  return reply
    .status(200)
    .type('text/html; charset=utf-8')
    .send(pointsPage(p, chapter, home))
}

/** HTML as the certificates' page (no script; the style allowed by its hash); people's texts isolated in <bdi>. */
function pointsPage(p: VerifiedPoints, chapter: string, home: string): string {
  const title = p.stands ? 'Activity points verified' : 'Activity points withdrawn'
  const lead = p.stands
    ? `<p>This entry of an activity points transcript is genuine and stands today. It was recorded by the ${escapeHtml(chapter)} from the door’s check-ins, the event’s roles and its winners.</p>`
    : `<p>This code belongs to an entry of an activity points transcript that no longer stands: the check-in, role or winner’s mark it came from was removed after the transcript was printed. It is worth no points now.</p>`
  return verifyDocument(
    title,
    `<h1>${title}</h1>
${lead}
${rows([
  ['Name', `<bdi>${escapeHtml(p.name)}</bdi>`],
  ['Event', `<bdi>${escapeHtml(p.event)}</bdi>`],
  ['Organised by', `<bdi>${escapeHtml(p.council)}</bdi>`],
  ['Date', escapeHtml(certificateDate(p.dates))],
  ['Category', `<bdi>${escapeHtml(p.category)}</bdi>`],
  ['Role', escapeHtml(KIND_LABELS[p.role])],
  ['Points', String(p.points)],
  ['Verification code', escapeHtml(printedCode(p.code))],
])}`,
    { tone: p.stands ? 'genuine' : 'withdrawn', home },
  )
}
