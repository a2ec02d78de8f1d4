// The calendar feed and certificates (API.md Part 2 "Around the event"). The signed-in calls (the feed's URL, the
// PDF) sit in the /p/ scope; the feed itself and the verification page are public: the feed's secret, or the
// certificate's code, is what they are asked with.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import type { Config } from '../config.ts'
import { certificateDate, certificatePdf, loadLogo } from '../feeds/certificate-pdf.ts'
import { calendarFeed } from '../feeds/ics.ts'
import { feedSecrets, normalCode, printedCode } from '../feeds/secrets.ts'
import type { Certificate } from '../db/events/feeds.ts'
import { notFound } from '../errors.ts'
import { declared } from './declare.ts'
import { escapeHtml, rows, VERIFY_PAGE_POLICY, verifyDocument } from './verify-document.ts'
import { verifiedPointsAnswer } from './verify-points.ts'
import { refusal, valueOf } from './outcomes.ts'

interface Options {
  config: Config
  /** The server's secret (JWT_SECRET or DATA_DIR's); the feed's key is derived from it. */
  secret: Uint8Array
}

export const CHAPTER = 'CSI-KJSCE chapter'
const FEED_NAME = 'My CSI Events'
/** An HMAC-SHA256 in base64url: anything else names no feed, without asking the database. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/

export const FEED_MESSAGES = {
  unknownFeed: 'No such calendar feed: it may have been replaced. Copy the new link from your Profile.',
  unknownCertificate: 'No certificate has this code.',
  unknownPage:
    'No certificate or transcript entry has this verification code. Check the code printed at the bottom of the certificate, or beside the transcript’s entry, and try again.',
} as const

/** Where the API answers from outside: its own origin when the app was built for another host, else the app's. */
const apiBase = (config: Config, prefix: string) => `${config.apiOrigin ?? config.appUrl}${prefix}`

/** The signed-in student's feed URL and certificates. */
export const feedRoutes: FastifyPluginAsyncZod<Options> = async (app, { config, secret }) => {
  const feeds = app.feedsRepository
  const secrets = feedSecrets(secret)
  const logo = await loadLogo(config.staticDir)
  if (!logo) app.log.warn('certificates: the logo (icons/icon-192.png) was not found; certificates are made without it')

  app.route({
    ...declared(CALLS.calendarFeed),
    config: { rateLimit: app.rateLimits.writes },
    handler: async (request) => {
      const nonce = await feeds.feedNonce(request.userId, secrets.fresh(request.userId), request.body.rotate === true)
      return { error: false as const, url: `${apiBase(config, app.prefix)}/calendar/${secrets.secretOf(request.userId, nonce)}.ics` }
    },
  })

  app.route({
    ...declared(CALLS.certificate),
    // Making a PDF costs a few milliseconds of CPU: counted with the student's writes.
    config: { rateLimit: app.rateLimits.writes },
    handler: async (request, reply) => {
      const { event_id } = request.params
      if (event_id === null) throw refusal('eventNotFound')
      const certificate = valueOf(await feeds.certificate(request.userId, event_id))
      const verifyUrl = `${verifyBase(config)}/${printedCode(certificate.code)}`
      const pdf = await certificatePdf(certificate, { verifyUrl, chapter: CHAPTER, logo })
      // A binary answer: the declared schema documents it, nothing serialises it.
      return (reply as FastifyReply)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="certificate-${event_id}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf))
    },
  })
}

/** The feed a calendar app subscribes to, and the public certificate check. */
export const publicFeedRoutes: FastifyPluginAsyncZod<Options> = async (app, { config, secret }) => {
  const feeds = app.feedsRepository
  const secrets = feedSecrets(secret)
  const host = new URL(config.appUrl).hostname

  app.route({
    ...declared(CALLS.calendar),
    // A bucket of its own (issue 21 item 12): a calendar service fetches many students' feeds from one address.
    config: { rateLimit: app.rateLimits.calendar },
    handler: async (request, reply) => {
      const { secret: given } = request.params
      const owner = SECRET_SHAPE.test(given) ? await feeds.feedOwner(secrets.hashOf(given)) : null
      if (!owner) throw notFound('UNKNOWN_FEED', FEED_MESSAGES.unknownFeed)
      const body = calendarFeed(await feeds.feedEvents(owner.userId), { host, appUrl: config.appUrl, name: FEED_NAME })
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').header('x-robots-tag', 'noindex').send(body)
    },
  })

  app.route({ ...declared(CALLS.verifyCertificate), config: { rateLimit: app.rateLimits.verify }, handler: verifyHandler(app, config) })
}

/**
 * The short address /verify/<code> (issue 37 item 1), on the server's own origin beside the app: the one the
 * certificate and the transcript print. The same answer as the API's /api/v1/verify/<code> (a page, or JSON for
 * `Accept: application/json`), registered before the app's catch-all, so it is never the app's index.html (which sent
 * a fresh phone to sign in and showed a signed-in student "Page not found"). The API's path stays for codes printed
 * before, and is the one the OpenAPI document describes.
 */
export const shortVerifyRoute: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const handler = verifyHandler(app, config)
  app.get('/verify/:code', { schema: { hide: true }, config: { rateLimit: app.rateLimits.verify } }, (request, reply) =>
    handler(request as FastifyRequest<{ Params: { code: string } }>, reply),
  )
}

/** Where the short address is: the API's origin when the app was built for another host (it serves the page), else the app's. */
export const verifyBase = (config: Config) => `${config.apiOrigin ?? config.appUrl}/verify`

function verifyHandler(app: FastifyInstance, config: Config) {
  const feeds = app.feedsRepository
  return async (request: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply) => {
    const code = normalCode(request.params.code)
    const found = code ? await feeds.verify(code) : null
    // One more kind (issue 26): a code of an activity points transcript's entry.
    const points = code && !found ? await app.pointsRepository.verify(code) : null
    const accept = request.headers.accept ?? ''
    // The page's own policy: its inline style by hash, no script (kept by the security headers).
    if (!/\bapplication\/json\b/.test(accept)) reply.header('content-security-policy', VERIFY_PAGE_POLICY)
    if (points) return verifiedPointsAnswer(accept, reply, points, CHAPTER, config.appUrl)
    // JSON when asked for; and an unknown code is the API's JSON 404 for any client that is not a browser.
    const json = /\bapplication\/json\b/.test(accept) || (!found && !/\btext\/html\b/.test(accept))
    reply.header('x-robots-tag', 'noindex').header('cache-control', 'public, max-age=300')
    if (json) {
      if (!found) throw notFound('UNKNOWN_CERTIFICATE', FEED_MESSAGES.unknownCertificate)
      return reply.type('application/json; charset=utf-8').send({
        error: false as const,
        certificate: { code: printedCode(found.code), name: found.name, event: found.event, council: found.council, date: found.dates[0] ?? null },
      })
    }
    // A browser gets its 404 as a page too: a person followed the address.
    return reply
      .status(found ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(verifyPage(found, config.appUrl))
  }
}

/**
 * The public page: plain HTML (no script, no inline style, so the server's CSP holds), readable on a phone. The
 * texts people chose (name, event, council) are isolated in <bdi>: a right-to-left override in a name (U+202E)
 * showed it, and what follows it on the line, reversed (issue 21 item 11).
 */
function verifyPage(c: Certificate | null, home: string): string {
  const body = c
    ? `<h1>Certificate verified</h1>
<p>This certificate of participation is genuine. It was issued by the ${escapeHtml(CHAPTER)} to:</p>
${rows([
  ['Name', `<bdi>${escapeHtml(c.name)}</bdi>`],
  ['Event', `<bdi>${escapeHtml(c.event)}</bdi>`],
  ['Organised by', `<bdi>${escapeHtml(c.council)}</bdi>`],
  ['Date', escapeHtml(certificateDate(c.dates))],
  ['Verification code', escapeHtml(printedCode(c.code))],
])}`
    : `<h1>Unknown verification code</h1>
<p>${escapeHtml(FEED_MESSAGES.unknownPage)}</p>`
  return verifyDocument(c ? 'Certificate verified' : 'Unknown verification code', body, { tone: c ? 'genuine' : 'unknown', home })
}
