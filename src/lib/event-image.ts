// An event's picture (issue 37 item 7): its own, or where it has none its council's artwork rather than a grey box.
// Cards take the card-sized banner first; the event and ticket pages the details image.
import type { EventSummary } from '../../contract/types.ts'

type Pictured = Pick<EventSummary, 'banner_url' | 'event_page_image_url' | 'organizer'>

export const eventImage = (event: Pictured, card?: boolean): string | null =>
  (card ? event.banner_url || event.event_page_image_url : event.event_page_image_url || event.banner_url) || event.organizer.photo_url
