// What every route file is given: configuration, the database and the token services.
import type { Config } from './config.ts'
import type { Db } from './db/index.ts'
import type { AccessTokens } from './auth/tokens.ts'

export interface Deps {
  config: Config
  db: Db
  dbKind: 'postgres' | 'pglite'
  tokens: AccessTokens
  /** Signs cookies (the sign-in state) and is never the JWT secret itself. */
  cookieSecret: string
}
