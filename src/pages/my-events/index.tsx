// Placeholder screen: replaced by the engineer who builds this screen.
export default function MyEventsPage() {
  return <h1>My Events</h1>
}
