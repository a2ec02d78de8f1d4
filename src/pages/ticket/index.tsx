// Placeholder screen: replaced by the engineer who builds this screen.
export default function TicketPage() {
  return <h1>Ticket</h1>
}
