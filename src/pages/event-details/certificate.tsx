// "Download certificate" on a completed event's page (issue 13): a chunk of its own, fetched only for a student
// the door checked in at a completed event.
import { CertificateButton } from '../../components/download-button/index.tsx'
import { buildFeeds } from '../../stores/feeds.ts'
import { room } from '../../models.ts'

const feeds = room(buildFeeds)

export function Certificate({ eventId }: { eventId: number }) {
  return (
    <p>
      <CertificateButton download={() => feeds.certificate(eventId)} filename={`certificate-${eventId}.pdf`} />
    </p>
  )
}
