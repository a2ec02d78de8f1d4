// Placeholder screen: replaced by the engineer who builds this screen.
export default function CalendarPage() {
  return <h1>Calendar</h1>
}
