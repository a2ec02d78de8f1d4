// Placeholder screen: replaced by the engineer who builds this screen.
export default function HomePage() {
  return <h1>Home</h1>
}
