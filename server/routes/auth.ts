// Sign-in and sessions (API.md "auth" rows): Google (or, outside production and without Google settings, a
// development form), the refresh-token trade and logout.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { SIGN_IN_STATE } from '../../contract/constants.ts'
import type { Config } from '../config.ts'
import { notFound, unauthorized, badRequest } from '../errors.ts'
import { domainAllowed, domainRefusal, googleSignIn, SignInError, type PendingSignIn } from '../auth/google.ts'
import type { SignedInIdentity } from '../db/people/users.ts'
import { EMAIL_MAX, NAME_MAX, devPage, devPagePolicy, type DevForm } from '../auth/dev-page.ts'
import { declared } from './declare.ts'

const PENDING_COOKIE = 'oidc_pending'
const PENDING_SECONDS = 600
export const DEV_ISSUER = 'dev'
// Plausible, not RFC 5322: one @, no spaces, a dot in the domain.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const google = config.google ? googleSignIn(config.google, config.allowedEmailDomains) : undefined
  const devSignIn = !google && !config.production
  const cookiePath = `${app.prefix}/auth` // /api/v1/auth: the cookie goes to the callback and nowhere else
  const callbackUrl = `${config.appUrl}${app.prefix}${CALLS.signInCallback.path}`
  const signInLimit = { rateLimit: app.rateLimits.signIn }
  const secureCookie = config.appUrl.startsWith('https:')

  // The development form posts form-urlencoded; this parser exists in this plugin's scope only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })

  /** Back to the app's login screen; tokens and errors travel in the fragment, which no server or log sees. */
  const toLogin = (reply: FastifyReply, fragment: Record<string, string>) =>
    reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(`${config.appUrl}/login#${new URLSearchParams(fragment)}`, 302)

  /**
   * `appState` is the app's one-time value from GET /auth/google, carried through the round trip (the signed
   * cookie, or the form's hidden field) and handed back beside the tokens: the app accepts tokens only with the
   * value it keeps for a sign-in it started, so a link carrying someone else's tokens does nothing (login CSRF).
   */
  const signIn = async (request: FastifyRequest, reply: FastifyReply, who: SignedInIdentity, appState: string | undefined) => {
    const user = await app.usersRepository.upsertSignedIn(who)
    // ADMIN_EMAILS (issue 37 item 4): the first admin of a fresh deployment, without the command line or a restart.
    if (config.adminEmails.includes(who.email.trim().toLowerCase()) && (await app.rolesRepository.adminBySetting(user.id, who.email)))
      request.log.info({ userId: user.id }, 'admin by ADMIN_EMAILS')
    const tokens = await app.sessionsRepository.start(user.id)
    request.log.info({ userId: user.id, issuer: who.issuer }, 'sign-in')
    return toLogin(reply, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, ...(appState ? { state: appState } : {}) })
  }

  app.route({
    ...declared(CALLS.signIn),
    config: signInLimit,
    handler: async (request, reply) => {
      const appState = request.query.state
      if (!google) {
        if (!devSignIn) throw notFound('SIGN_IN_NOT_CONFIGURED', 'Google sign-in is not configured.')
        return sendDevPage(reply, 200, { state: appState })
      }
      try {
        const { url, pending } = await google.start(callbackUrl)
        reply.setCookie(PENDING_COOKIE, JSON.stringify({ ...pending, appState, at: Date.now() }), {
          signed: true,
          httpOnly: true,
          sameSite: 'lax', // sent on the top-level redirect back from Google, not on cross-site subrequests
          secure: secureCookie,
          path: cookiePath,
          maxAge: PENDING_SECONDS,
        })
        return reply.header('cache-control', 'no-store').redirect(url.href, 302)
      } catch (err) {
        request.log.warn({ err }, 'sign-in could not start')
        return toLogin(reply, { error: err instanceof SignInError ? err.message : 'Google sign-in failed. Please try again.' })
      }
    },
  })

  app.route({
    ...declared(CALLS.signInCallback),
    config: signInLimit,
    handler: async (request, reply) => {
      if (!google) throw notFound('SIGN_IN_NOT_CONFIGURED', 'Google sign-in is not configured.')
      reply.clearCookie(PENDING_COOKIE, { path: cookiePath, httpOnly: true, sameSite: 'lax', secure: secureCookie, signed: true })
      try {
        const pending = readPending(request)
        if (!pending) throw new SignInError('Your sign-in expired or was started in another browser. Please try again.')
        const who = await google.finish(new URL(callbackUrl + querySuffix(request.url)), pending)
        return await signIn(request, reply, who, pending.appState)
      } catch (err) {
        const message = err instanceof SignInError ? err.message : 'Google sign-in failed. Please try again.'
        request.log.warn({ reason: message, cause: err instanceof Error ? String(err.cause ?? err.message) : undefined }, 'sign-in refused')
        return toLogin(reply, { error: message })
      }
    },
  })

  app.route({
    ...declared(CALLS.devSignIn),
    config: signInLimit,
    handler: async (request, reply) => {
      if (!devSignIn) throw notFound('NOT_FOUND', 'No such API call.')
      const body = request.body
      const fromForm = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
      const name = typeof body.name === 'string' ? body.name.trim() : ''
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : ''
      const problem = !name
        ? 'Name is a required field'
        : name.length > NAME_MAX
          ? `Name must be at most ${NAME_MAX} characters`
          : !email
            ? 'E-mail is a required field'
            : email.length > EMAIL_MAX || !EMAIL_SHAPE.test(email)
              ? 'E-mail must be a valid address, like name@example.com'
              : !domainAllowed(email.slice(email.lastIndexOf('@') + 1), config.allowedEmailDomains)
                ? domainRefusal(config.allowedEmailDomains)
                : null
      if (problem) {
        if (fromForm) return sendDevPage(reply, 400, { error: problem, name: String(body.name ?? ''), email: String(body.email ?? ''), state: body.state })
        throw badRequest(problem)
      }
      return signIn(request, reply, { issuer: DEV_ISSUER, subject: email, email, name }, body.state)
    },
  })

  app.route({
    ...declared(CALLS.refreshToken),
    config: { rateLimit: app.rateLimits.refresh },
    handler: async (request) => {
      const result = await app.sessionsRepository.rotate(request.body.refreshToken)
      if (!result.ok) {
        if (result.reason === 'reused') {
          request.log.warn({ userId: result.userId, familyId: result.familyId }, 'refresh token reused: its family is revoked')
          // Its access tokens stop working too (issue 10), not only at their expiry.
          if (result.familyId) await app.revocations.revoke(result.familyId)
        }
        throw unauthorized()
      }
      return { error: false as const, accessToken: result.accessToken, refreshToken: result.refreshToken }
    },
  })

  app.route({
    ...declared(CALLS.logout),
    // Unauthenticated like refresh: counted per client address in the same bucket (issue 10, item 2).
    config: { rateLimit: app.rateLimits.refresh },
    handler: async (request) => {
      const revoked = await app.sessionsRepository.revokeByToken(request.body.refreshToken)
      if (revoked) {
        request.log.info({ userId: revoked.userId }, 'logout')
        await app.revocations.revoke(revoked.familyId)
      }
      return { error: false as const }
    },
  })

  function readPending(request: FastifyRequest): (PendingSignIn & { appState?: string }) | null {
    const raw = request.cookies[PENDING_COOKIE]
    if (!raw) return null
    const unsigned = request.unsignCookie(raw)
    if (!unsigned.valid || !unsigned.value) return null
    try {
      const p = JSON.parse(unsigned.value)
      // The browser drops the cookie after 10 minutes; the time inside it enforces that on our side too.
      const fresh = typeof p.at === 'number' && Date.now() - p.at < PENDING_SECONDS * 1000
      const complete = [p.state, p.nonce, p.verifier].every((v) => typeof v === 'string' && v.length > 0)
      const appState = typeof p.appState === 'string' && SIGN_IN_STATE.test(p.appState) ? p.appState : undefined
      return fresh && complete ? { state: p.state, nonce: p.nonce, verifier: p.verifier, appState } : null
    } catch {
      return null
    }
  }

  function sendDevPage(reply: FastifyReply, status: number, form: DevForm) {
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('content-security-policy', devPagePolicy(new URL(config.appUrl).origin))
      .type('text/html; charset=utf-8')
      .send(devPage(`${app.prefix}${CALLS.devSignIn.path}`, form))
  }
}

export default authRoutes

/** The query string of a request URL ('' when none), to rebuild the callback URL on the configured origin. */
function querySuffix(url: string): string {
  const i = url.indexOf('?')
  return i < 0 ? '' : url.slice(i)
}
