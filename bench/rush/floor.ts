// The rush's floor (issue 15 item 4): a bare Fastify process with one trivial route that answers 200, driven by
// bench/rush/run.ts with the same load generator, requests (body and bearer header) and concurrency as the claims.
// What the full server costs beyond this is what the claim path adds.
import Fastify from 'fastify'

const app = Fastify()
app.post('/floor', async () => ({ error: false, message: 'OK' }))
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' })
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
