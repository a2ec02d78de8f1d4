// The app's frame: an error boundary around the LocationProvider, the layout and the Router (the screens of src/routes.ts).
import { Component, type ComponentChildren } from 'preact'
import { LocationProvider, Route, Router } from 'preact-iso'
import { Problem } from './components/problem/index.tsx'
import { Layout } from './pages/shell/layout.tsx'
import { Toaster } from './components/toast/index.tsx'
import { OfflineNotice } from './pages/shell/offline-notice.tsx'
import { matchRoute, routes } from './routes.ts'

function NotFound() {
  return (
    <div class="page-message">
      <h1>Page not found</h1>
      <p>
        <a href="/">Go to Home</a>
      </p>
    </div>
  )
}

/** Last line of defence: a render error shows a way out instead of a blank screen. */
class ErrorBoundary extends Component<{ children: ComponentChildren }, { failed: boolean }> {
  state = { failed: false }
  componentDidCatch(error: unknown) {
    console.error('render failed', error)
    this.setState({ failed: true })
  }
  render() {
    if (!this.state.failed) return this.props.children
    return <Problem title="Something went wrong" text="Please reload the app." label="Reload" onRetry={() => location.reload()} />
  }
}

const isBare = (path: string) => matchRoute(path)?.layout === false

export function App() {
  return (
    <ErrorBoundary>
      <LocationProvider>
        <OfflineNotice />
        <Layout isBare={isBare}>
          <Router>
            {[
              ...routes.map((route) => <Route key={route.path} path={route.path} component={route.component} />),
              <Route key="404" default component={NotFound} />,
            ]}
          </Router>
        </Layout>
        <Toaster />
      </LocationProvider>
    </ErrorBoundary>
  )
}
