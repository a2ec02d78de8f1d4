// Placeholder screen: replaced by the engineer who builds this screen.
export default function EventDetailsPage() {
  return <h1>Event Details</h1>
}
