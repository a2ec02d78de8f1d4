// Google sign-in (OpenID Connect authorization code flow with PKCE S256, state and nonce) through
// openid-client, which checks the ID token's issuer, audience, expiry and nonce (and, turned on below, its
// signature). This module adds what is ours to decide: a verified e-mail and, optionally, an allowed domain.
// openid-client (megabytes of heap once loaded) is imported at the first sign-in, not at start: an instance
// without Google settings never loads it (issue 15 item 6: start memory).
import type * as Client from 'openid-client'

let loaded: Promise<typeof Client> | undefined
const openidClient = () => (loaded ??= import('openid-client'))

export interface GoogleSettings {
  clientId: string
  clientSecret: string
  issuer: string
}

/** What the browser must bring back to the callback (kept in a signed cookie, never on the server). */
export interface PendingSignIn {
  state: string
  nonce: string
  verifier: string
}

/** The person the provider vouches for, once every check passed. */
export interface VerifiedIdentity {
  issuer: string
  subject: string
  email: string
  name: string
  photoUrl: string | null
}

/** A refusal whose message a student can read on the login screen. */
export class SignInError extends Error {}

export const SCOPE = 'openid email profile'

/**
 * openid-client refuses plain-http providers, rightly. Tests and the e2e suite run a provider on loopback,
 * so http is allowed there and nowhere else.
 */
export function isLoopbackHttp(issuer: string): boolean {
  try {
    const url = new URL(issuer)
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  } catch {
    return false
  }
}

/** The domain a Google account belongs to: the Workspace `hd` claim when present, else the e-mail's domain. */
export function accountDomain(claims: { hd?: unknown; email: string }): string {
  if (typeof claims.hd === 'string' && claims.hd) return claims.hd.toLowerCase()
  return claims.email.slice(claims.email.lastIndexOf('@') + 1).toLowerCase()
}

export function domainAllowed(domain: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || allowed.includes(domain.toLowerCase())
}

export function domainRefusal(allowed: readonly string[]): string {
  return `Please sign in with your college account (${allowed.map((d) => '@' + d).join(', ')}).`
}

export interface GoogleSignIn {
  /** The provider's authorization URL and the values the callback will need. */
  start(redirectUri: string): Promise<{ url: URL; pending: PendingSignIn }>
  /** Exchanges the code on the callback URL and checks the ID token; throws SignInError with a readable message. */
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<VerifiedIdentity>
}

export function googleSignIn(settings: GoogleSettings, allowedDomains: readonly string[] = []): GoogleSignIn {
  // Discovery is fetched once, lazily; a failure is forgotten so the next sign-in tries again.
  let discovered: Promise<Client.Configuration> | undefined
  const configuration = () => {
    discovered ??= openidClient()
      .then((client) =>
        client.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
          // The ID token comes straight from the provider over TLS, where the spec lets clients skip its
          // signature; we check it anyway (keys from the provider's JWKS, cached), so a token that did not
          // come signed by the provider is refused even if the channel were not what we think.
          execute: [client.enableNonRepudiationChecks, ...(isLoopbackHttp(settings.issuer) ? [client.allowInsecureRequests] : [])],
          timeout: 10,
        }),
      )
      .catch((err) => {
        discovered = undefined
        throw err
      })
    return discovered
  }

  return {
    async start(redirectUri) {
      let config: Client.Configuration
      const client = await openidClient()
      try {
        config = await configuration()
      } catch (err) {
        throw new SignInError('Google sign-in is unavailable right now. Please try again in a minute.', { cause: err })
      }
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      }
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
        prompt: 'select_account',
        ...(allowedDomains.length === 1 ? { hd: allowedDomains[0] } : {}), // only a hint: the callback checks
      })
      return { url, pending }
    },

    async finish(callbackUrl, pending) {
      const denied = callbackUrl.searchParams.get('error')
      if (denied) {
        throw new SignInError(denied === 'access_denied' ? 'Google sign-in was cancelled.' : 'Google sign-in failed. Please try again.')
      }
      let claims: Client.IDToken | undefined
      const client = await openidClient()
      try {
        const config = await configuration()
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        })
        claims = tokens.claims()
      } catch (err) {
        throw new SignInError('Google sign-in could not be verified. Please try again.', { cause: err })
      }
      if (!claims) throw new SignInError('Google sign-in could not be verified. Please try again.')
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : ''
      if (!email || !email.includes('@')) throw new SignInError('Your Google account did not share an e-mail address.')
      if (claims.email_verified !== true) throw new SignInError('Your Google e-mail address is not verified.')
      if (!domainAllowed(accountDomain({ hd: claims.hd, email }), allowedDomains)) {
        throw new SignInError(domainRefusal(allowedDomains))
      }
      const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 80) : email.split('@')[0]
      const picture = typeof claims.picture === 'string' && /^https?:\/\//.test(claims.picture) && claims.picture.length <= 2048 ? claims.picture : null
      return { issuer: claims.iss, subject: claims.sub, email, name, photoUrl: picture }
    },
  }
}
