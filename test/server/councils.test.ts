// POST /council/p/get: the directory from the database, ordered by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { testApp, type TestApp } from './helpers.ts'

describe('council calls', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  })
  afterAll(() => t.close())

  const call = (headers: Record<string, string>, payload = 'true') =>
    t.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: { 'content-type': 'application/json', ...headers }, payload })

  it('answers 401 without a token', async () => {
    const res = await call({})
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' })
  })

  it('answers an empty list before any council exists', async () => {
    const { auth } = await t.student()
    const res = await call(auth)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ error: false, councils: [] })
  })

  it('lists every council with exactly the Council fields, ordered by name', async () => {
    const { councils: ids } = await importCatalogue(t.database.db, {
      councils: [
        { slug: 'sports', name: 'Sports Council', photo_url: '/demo/council-sports.svg', phone_number: '9892055667', email: 'sports@example.edu' },
        { slug: 'csi', name: 'CSI-KJSCE', photo_url: 'https://img.example/csi.png', phone_number: '9820011223', email: 'csi@example.edu' },
        { slug: 'arts', name: 'Arts Circle' },
      ],
      events: [],
    })
    const { auth } = await t.student()
    for (const payload of ['true', '{}', '']) {
      const res = await call(auth, payload)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        error: false,
        councils: [
          { id: ids.arts, name: 'Arts Circle', photo_url: null, phone_number: null, email: null },
          { id: ids.csi, name: 'CSI-KJSCE', photo_url: 'https://img.example/csi.png', phone_number: '9820011223', email: 'csi@example.edu' },
          { id: ids.sports, name: 'Sports Council', photo_url: '/demo/council-sports.svg', phone_number: '9892055667', email: 'sports@example.edu' },
        ],
      })
    }
  })
})
