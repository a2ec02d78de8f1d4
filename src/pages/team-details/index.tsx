// Placeholder screen: replaced by the engineer who builds this screen.
export default function TeamDetailsPage() {
  return <h1>Team Details</h1>
}
