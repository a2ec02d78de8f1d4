// Placeholder screen: replaced by the engineer who builds this screen.
export default function TeamRegistrationPage() {
  return <h1>Team Registration</h1>
}
