// Where the tokens live in localStorage (SPEC §3): shared by the client and its refresh (src/api/refresh.ts).
export const ACCESS_TOKEN = 'accessToken'
export const REFRESH_TOKEN = 'refreshToken'
