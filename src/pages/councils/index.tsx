// Placeholder screen: replaced by the engineer who builds this screen.
export default function CouncilsPage() {
  return <h1>Councils</h1>
}
