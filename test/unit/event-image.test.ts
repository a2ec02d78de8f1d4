// An event's picture (issue 37 item 7): its own, the card's banner first on cards and the details image first on
// pages; with none, its council's artwork; with neither, none (the grey box is the last resort).
import { describe, expect, it } from 'vitest'
import { eventImage } from '../../src/lib/event-image.ts'

const council = (photo_url: string | null) => ({ id: 1, name: 'CSI-KJSCE', photo_url })

describe('eventImage', () => {
  it('cards take the banner first, pages the details image first', () => {
    const event = { banner_url: '/uploads/a-card.webp', event_page_image_url: '/uploads/a.webp', organizer: council('/uploads/csi.webp') }
    expect(eventImage(event, true)).toBe('/uploads/a-card.webp')
    expect(eventImage(event)).toBe('/uploads/a.webp')
    expect(eventImage({ ...event, banner_url: null }, true)).toBe('/uploads/a.webp')
    expect(eventImage({ ...event, event_page_image_url: null })).toBe('/uploads/a-card.webp')
  })

  it("an event without a picture gets its council's artwork; with neither, none", () => {
    const bare = { banner_url: null, event_page_image_url: null, organizer: council('/uploads/csi.webp') }
    expect(eventImage(bare, true)).toBe('/uploads/csi.webp')
    expect(eventImage(bare)).toBe('/uploads/csi.webp')
    expect(eventImage({ ...bare, organizer: council(null) })).toBeNull()
  })
})
