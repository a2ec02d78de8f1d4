// Where the tokens live in localStorage (SPEC §3): shared by the client and its refresh (src/api/refresh.ts); and
// when the access token expires (ms since the epoch, written beside it by whoever stores one: src/boot.ts drops a
// token about to expire, and the client renews it before its first call rather than after a 401).
export const ACCESS_TOKEN = 'accessToken'
export const REFRESH_TOKEN = 'refreshToken'
export const TOKEN_EXPIRES = 'tokenExpires'
