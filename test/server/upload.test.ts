// Image upload (API.md Part 2 /org/p/upload): organisers only; JPEG, PNG or WebP recognised by their bytes, at most
// 5 MB (else 415 with a message); re-encoded as WebP in two widths with no metadata; served at /uploads/ with
// immutable caching.
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { testApp, type TestApp } from './helpers.ts'

function multipart(file: Buffer, filename: string, type: string) {
  const boundary = `----b${randomBytes(8).toString('hex')}`
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return { payload: Buffer.concat([head, file, tail]), contentType: `multipart/form-data; boundary=${boundary}` }
}

describe('POST /org/p/upload', () => {
  let t: TestApp
  let organiser: { id: number; auth: { authorization: string } }
  let student: { id: number; auth: { authorization: string } }
  beforeAll(async () => {
    t = await testApp()
    const [c] = await t.database.db.insert(schema.councils).values({ slug: 'up', name: 'Uploaders' }).returning({ id: schema.councils.id })
    organiser = await t.student()
    student = await t.student()
    await t.database.db.insert(schema.councilOrganizers).values({ councilId: c!.id, userId: organiser.id })
  }, 120_000)
  afterAll(() => t.close())

  const upload = (file: Buffer, auth: Record<string, string> | undefined, name = 'photo.jpg', type = 'image/jpeg') => {
    const { payload, contentType } = multipart(file, name, type)
    return t.app.inject({ method: 'POST', url: '/api/v1/org/p/upload', headers: { 'content-type': contentType, ...auth }, payload })
  }

  it('re-encodes a JPEG with EXIF as WebP in two widths, metadata gone, served immutable', async () => {
    const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-owner', Artist: 'somebody' } })
      .toBuffer()
    expect((await sharp(jpeg).metadata()).exif).toBeDefined()
    const res = await upload(jpeg, organiser.auth)
    expect(res.statusCode, res.body).toBe(200)
    const { url } = res.json()
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/)
    const details = await t.app.inject({ method: 'GET', url })
    expect(details.statusCode).toBe(200)
    expect(details.headers['content-type']).toBe('image/webp')
    expect(details.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const meta = await sharp(details.rawPayload).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 1000, height: 563 })
    expect(meta.exif).toBeUndefined()
    expect(details.rawPayload.includes(Buffer.from('secret-owner'))).toBe(false)
    const card = await t.app.inject({ method: 'GET', url: url.replace(/\.webp$/, '-card.webp') })
    expect(card.statusCode).toBe(200)
    expect((await sharp(card.rawPayload).metadata()).width).toBe(400)
    console.log(`upload: card ${card.rawPayload.length} B, details ${details.rawPayload.length} B (from a ${jpeg.length} B JPEG)`)
    const audit = await t.database.db.select().from(schema.auditLog)
    expect(audit.some((a) => a.action === 'image.upload' && a.actorId === organiser.id)).toBe(true)
  })

  it('takes PNG and WebP; a small image is not enlarged', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#0000ff80' } })
      .png()
      .toBuffer()
    const res = await upload(png, organiser.auth, 'x.png', 'image/png')
    expect(res.statusCode).toBe(200)
    const got = await t.app.inject({ method: 'GET', url: res.json().url })
    expect((await sharp(got.rawPayload).metadata()).width).toBe(300)
    const webp = await sharp(png).webp().toBuffer()
    expect((await upload(webp, organiser.auth, 'x.webp', 'image/webp')).statusCode).toBe(200)
  })

  it('refuses anything else with 415 and a message, whatever the name or type claimed', async () => {
    const text = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), organiser.auth, 'evil.jpg', 'image/jpeg')
    expect(text.statusCode).toBe(415)
    expect(text.json()).toEqual({ error: true, message: 'Only JPEG, PNG or WebP images can be uploaded.' })
    const gif = await upload(Buffer.from('GIF89a\x01\x00\x01\x00'), organiser.auth, 'a.gif', 'image/gif')
    expect(gif.statusCode).toBe(415)
    const broken = await upload(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(500)]), organiser.auth)
    expect(broken.statusCode).toBe(415)
    const big = await upload(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(5 * 1024 * 1024 + 10)]), organiser.auth)
    expect(big.statusCode).toBe(415)
    expect(big.json().message).toBe('The image is larger than 5 MB: choose a smaller one.')
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/upload',
      headers: { 'content-type': 'application/json', ...organiser.auth },
      payload: '{}',
    })
    expect(json.statusCode).toBe(415)
  })

  it('organisers only: a student 403, signed out 401, and nothing stored', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } })
      .png()
      .toBuffer()
    expect((await upload(png, student.auth)).statusCode).toBe(403)
    expect((await upload(png, undefined)).statusCode).toBe(401)
  })

  it('serves nothing but stored uploads', async () => {
    for (const url of ['/uploads/..%2F..%2Fetc%2Fpasswd', '/uploads/abc.webp', '/uploads/0123456789abcdef0123456789abcdef.webp']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404)
    }
  })
})
