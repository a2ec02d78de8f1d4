// Placeholder screen: replaced by the engineer who builds this screen.
export default function EventsPage() {
  return <h1>Events</h1>
}
